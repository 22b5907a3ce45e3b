/// What the user asks of the files while the driver works: `status`, `pause`, `stop`,
/// `resume`, `start` and `reset`, as the agent's control socket passes them on.
extension SyncDriver {
    /// Every file of the manifest as `status` shows it: the saved state, overlaid with what
    /// is happening now.
    public func status() throws(StateStoreError) -> [FileStatus] {
        guard let manifest else { return [] }
        let pending = pendingIDs
        let files = try manifest.files.map { entry throws(StateStoreError) in
            let path = manifest.destinationPath(of: entry)
            return overlaid(FileStatus(entry: entry, path: path, record: try ledger.record(for: entry, at: path)), pending: pending)
        }
        let feeds = try FileStatus.feeds(of: manifest, store: store) { entry, path throws(StateStoreError) in
            try ledger.record(for: entry, at: path)
        }
        return files + feeds.map { $0.state == .notYetFetched || $0.state == .waitingToRetry ? overlaid($0, pending: pending) : $0 }
    }

    /// `status` with what is happening now: running, queued, waiting for a retry or a window.
    private func overlaid(_ status: FileStatus, pending: Set<Int>) -> FileStatus {
        var status = status
        let path = status.path
        if status.state == .paused, let size = pausedSizes[path] { status.bytesExpected = size }
        guard status.state != .paused, status.state != .stopped else { return status }
        if let id = ids[path], pending.contains(id) {
            if let running = inFlight[id]?.progress {
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

    /// Pauses (keeping partials) or stops (deleting them) files, running or not; held files
    /// are not started again until the user starts or resumes them.
    public func hold(_ entries: [Manifest.Entry], as hold: Hold) throws(StateStoreError) {
        try self.hold(HoldTargets(files: entries), as: hold)
    }

    /// Holds files, episodes and whole feeds, running or not: a held feed's check and its
    /// episodes' transfers are cancelled, and it is not checked again until released.
    public func hold(_ targets: HoldTargets, as hold: Hold) throws(StateStoreError) {
        guard let manifest else { return }
        saveChanges()
        for entry in targets.entries {
            let path = manifest.destinationPath(of: entry)
            // The partial's whole size is known only while it runs: kept, so `status` shows
            // "9.2 MB of 48 MB" for the paused file.
            if hold == .paused, let id = ids[path], let size = inFlight[id]?.progress?.expected { pausedSizes[path] = size }
            cancel(path, keepPartial: hold == .paused)
        }
        for feed in targets.feeds {
            let folder = manifest.folderPath(of: feed)
            if let id = ids[folder], feedFetches.removeValue(forKey: id) != nil { _ = madeEngine?.cancel(id: id, keepPartial: false) }
            for (path, episode) in episodeTransfers where episode.folder == folder { cancel(path, keepPartial: hold == .paused) }
        }
        try Holds.hold(targets, in: manifest, as: hold, store: store)
        planRequested = true
    }

    /// Lifts any hold from the files, and has the next round start them whatever their
    /// schedule, window and conditions say (the user's explicit request).
    public func release(_ entries: [Manifest.Entry]) throws(StateStoreError) {
        try release(HoldTargets(files: entries), starting: true)
    }

    /// Lifts any hold from files, episodes and feeds, and has the next round start them (a
    /// feed: check it, and start its wanted episodes) whatever their schedule, window and
    /// conditions say. `starting` (the user's `start`) also fetches skipped and failed
    /// episodes.
    public func release(_ targets: HoldTargets, starting: Bool) throws(StateStoreError) {
        guard let manifest else { return }
        saveChanges()
        try Holds.release(targets, in: manifest, starting: starting, store: store)
        var paths = targets.entries.map { manifest.destinationPath(of: $0) }
        for feed in targets.feeds {
            let folder = manifest.folderPath(of: feed)
            paths.append(folder)
            for episode in try store.episodes(ofFeed: folder) where episode.state == .wanted {
                paths.append(manifest.destinationPath(of: episode.entry(of: feed)))
            }
        }
        for path in paths {
            requestedNow.insert(path)
            pausedSizes[path] = nil
        }
        planRequested = true
    }

    /// Cancels every transfer and feed check, deletes the files the manifest put in place
    /// (episodes too) and forgets the state (see ``Reset``); returns the titles of the files
    /// deleted.
    public func reset() throws(StateStoreError) -> [String] {
        guard let manifest else { return [] }
        saveChanges()
        for entry in manifest.files { cancel(manifest.destinationPath(of: entry), keepPartial: false) }
        for path in episodeTransfers.keys { cancel(path, keepPartial: false) }
        for id in feedFetches.keys { _ = madeEngine?.cancel(id: id, keepPartial: false) }
        feedFetches = [:]
        planRequested = true
        return try Reset.run(manifest: manifest, store: store)
    }

    private func cancel(_ path: String, keepPartial: Bool) {
        guard let id = ids[path] else { return }
        cancelTransfer(id, keepPartial: keepPartial)
    }

    /// Cancels the pending transfer `id` and forgets what the driver kept of it; `false` when
    /// the engine had no such transfer.
    @discardableResult
    func cancelTransfer(_ id: Int, keepPartial: Bool) -> Bool {
        guard madeEngine?.cancel(id: id, keepPartial: keepPartial) == true else { return false }
        inFlight[id] = nil
        plannedEpisodes[id] = nil
        retrying[id] = nil
        return true
    }
}
