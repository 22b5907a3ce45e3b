import Foundation

/// The agent's answers to `syncagent status`, `pause`, `resume`, `stop`, `start` and `reset`.
extension Agent {
    func answer(_ request: ControlRequest) -> ControlResponse {
        if request.command != .status { planRequested = true }
        guard let manifest else {
            return .failure("the manifest cannot be used, so no file is known; fix it first (the log says what is wrong)")
        }
        let chosen: [Int]
        do {
            chosen = try TitleMatcher.match(request.titles, in: manifest.files.map(\.title))
        } catch {
            return .failure(error.message)
        }
        let entries = chosen.map { manifest.files[$0] }
        let allOfThem = request.titles.isEmpty
        do throws(StateStoreError) {
            switch request.command {
            case .status:
                return ControlResponse(ok: true, message: "the agent is running", files: try status(of: manifest))
            case .pause:
                try hold(entries, in: manifest, as: .paused)
                return done("paused", entries, all: allOfThem, note: "partial downloads are kept")
            case .stop:
                try hold(entries, in: manifest, as: .stopped)
                return done("stopped", entries, all: allOfThem, note: "partial downloads are deleted")
            case .resume:
                try release(entries, in: manifest)
                return done("resumed", entries, all: allOfThem)
            case .start:
                try release(entries, in: manifest)
                return done("starting", entries, all: allOfThem)
            case .reset:
                for entry in manifest.files {
                    if let id = ids[manifest.destinationPath(of: entry)] { cancel(id, keepPartial: false) }
                }
                let deleted = try Reset.run(manifest: manifest, store: configuration.store)
                logger.notice("reset by the user: \(deleted.count == 1 ? "1 file" : "\(deleted.count) files") deleted, state forgotten")
                return ControlResponse(ok: true, message: Reset.summary(deleted: deleted, of: manifest))
            }
        } catch {
            return .failure(error.description)
        }
    }

    /// Every file of the manifest as `status` shows it: the saved state, overlaid with what
    /// the agent is doing now.
    private func status(of manifest: Manifest) throws(StateStoreError) -> [FileStatus] {
        let pending = engine.pendingIDs
        return try manifest.files.map { entry throws(StateStoreError) in
            let path = manifest.destinationPath(of: entry)
            var status = FileStatus(entry: entry, path: path, record: try ledger.record(for: entry, at: path))
            guard status.state != .paused, status.state != .stopped else { return status }
            if let id = ids[path], pending.contains(id) {
                if let running = progress[id] {
                    status.state = .downloading
                    status.bytesReceived = running.received
                    status.bytesExpected = running.expected
                    status.bytesPerSecond = running.bytesPerSecond
                } else if let retry = retrying[id] {
                    status.state = .waitingToRetry
                    status.nextCheck = retry
                } else {
                    status.state = .queued
                }
            } else if let reason = waiting[path] {
                // "Not due" keeps what the state says (up to date, failed, never fetched).
                if case .notDue = reason {} else { status.state = FileStatus.state(for: reason) }
                status.nextCheck = reason.until
            }
            return status
        }
    }

    /// Pauses (keeping partials) or stops (deleting them) files, running or not; held files
    /// are not started again until the user starts or resumes them.
    private func hold(_ entries: [Manifest.Entry], in manifest: Manifest, as hold: Hold) throws(StateStoreError) {
        for entry in entries {
            if let id = ids[manifest.destinationPath(of: entry)] { cancel(id, keepPartial: hold == .paused) }
        }
        try Holds.hold(entries, in: manifest, as: hold, store: configuration.store)
    }

    /// Lifts any hold and asks the next scheduling round to start the files now, whatever
    /// their schedule, window and conditions say (an explicit request from the user).
    private func release(_ entries: [Manifest.Entry], in manifest: Manifest) throws(StateStoreError) {
        try Holds.release(entries, in: manifest, store: configuration.store)
        for entry in entries { requestedNow.insert(manifest.destinationPath(of: entry)) }
    }

    private func cancel(_ id: Int, keepPartial: Bool) {
        guard engine.cancel(id: id, keepPartial: keepPartial) else { return }
        inFlight[id] = nil
        progress[id] = nil
        retrying[id] = nil
    }

    /// "paused 2 files: A, B" / "paused all 6 files", with a note when there is one.
    private func done(_ verb: String, _ entries: [Manifest.Entry], all: Bool, note: String? = nil) -> ControlResponse {
        var message = Holds.summary(verb, entries, all: all)
        if let note, !entries.isEmpty { message += " (\(note))" }
        logger.notice("\(message), asked by the user")
        return ControlResponse(ok: true, message: message)
    }
}
