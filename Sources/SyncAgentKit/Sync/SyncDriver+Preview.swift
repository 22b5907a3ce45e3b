import FoundationEssentials

extension SyncDriver {
    /// What one file would do in the next scheduling round, and why: the answer of
    /// `syncagent --once --dry-run`.
    public struct PreviewedFile: Sendable, Equatable {
        /// Why a file would be fetched.
        public enum Reason: Sendable, Equatable {
            /// No version of it is on disk, and nothing has arrived yet.
            case missing
            /// Not on disk; its partial download would be continued from this many bytes.
            case resumes(from: Int64)
            /// On disk but never checked for this URL (new state, or a changed URL): the
            /// server is asked whether the file there is current.
            case unknownVersion
            /// On disk and checked before: asked for again only if it changed on the server
            /// (a conditional request). `schedule` is what the agent's schedule says of it
            /// now: `nil` when it is due, else why it would wait (not due yet, window…).
            case recheck(schedule: WaitReason?)
            /// The last attempt failed with this message.
            case failedLastTime(String)
        }

        /// Why a file would not be fetched.
        public enum Skip: Sendable, Equatable {
            /// The user paused or stopped it.
            case held(Hold)
            /// It waits for this reason (for `--once`, only a server's `Retry-After`).
            case waiting(WaitReason)
        }

        public var title: String
        public var path: String
        public var url: String
        /// Fetched, and why; or skipped, and why.
        public var decision: Decision

        /// Whether the file would be fetched.
        public enum Decision: Sendable, Equatable {
            case fetch(Reason)
            case skip(Skip)
        }
    }

    /// What the next scheduling round would do with each file of the manifest, in manifest
    /// order, then with each episode its feeds already want, without doing any of it: the
    /// same candidates and the same ``Scheduler`` as ``plan(conditions:)``, nothing handed to
    /// the engine, nothing saved.
    public func preview(conditions: Conditions? = nil) throws(StateStoreError) -> [PreviewedFile] {
        guard let manifest else { return [] }
        let now = self.now()
        let round = try candidates(of: manifest)
        let scheduler = Scheduler(timeZone: timeZone)
        let plan = scheduler.plan(round.files, at: now, conditions: conditions ?? .favourable)
        let waiting = Dictionary(plan.waiting.map { ($0.path, $0.reason) }, uniquingKeysWith: { $1 })
        var holds: [String: Hold] = [:]
        for (entry, hold) in round.held { holds[manifest.destinationPath(of: entry)] = hold }
        // Episodes a feed already wants (an interrupted one, say) are fetched like files.
        return try (manifest.files + wantedEpisodes(of: manifest).map(\.entry)).map { entry throws(StateStoreError) in
            let path = manifest.destinationPath(of: entry)
            // Where the file is: the name its server gave, if it did.
            let kept = try ledger.record(for: entry, at: path)?.keptPath ?? path
            var file = PreviewedFile(title: entry.title, path: kept, url: entry.url, decision: .fetch(.missing))
            if let hold = holds[path] {
                file.decision = .skip(.held(hold))
            } else if let reason = waiting[path] {
                file.decision = .skip(.waiting(reason))
            } else {
                file.decision = .fetch(try reason(for: entry, at: path, now: now, scheduler: scheduler, conditions: conditions ?? .favourable))
            }
            return file
        }
    }

    /// Why the file of `entry` would be fetched, from its record and the disk; a recheck
    /// says what the agent's own schedule (not the user's request) makes of it.
    private func reason(
        for entry: Manifest.Entry, at path: String, now: Date, scheduler: Scheduler, conditions: Conditions
    ) throws(StateStoreError) -> PreviewedFile.Reason {
        let record = try ledger.record(for: entry, at: path)
        if let last = record?.lastResult, last.kind == .failed { return .failedLastTime(last.message ?? "it failed") }
        let scheduled = ledger.scheduledFile(for: entry, at: path, record: record)
        guard scheduled.existsOnDisk else {
            return ledger.resumes(path) ? .resumes(from: PartFile.existingSize(for: record?.keptPath ?? path)) : .missing
        }
        guard record?.lastResult != nil else { return .unknownVersion }
        return .recheck(schedule: scheduler.waitReason(for: scheduled, at: now, conditions: conditions))
    }
}
