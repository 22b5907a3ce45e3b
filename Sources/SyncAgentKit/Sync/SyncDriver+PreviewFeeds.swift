import FoundationEssentials

extension SyncDriver {
    /// What one feed would do in the next scheduling round, and why: the feeds' part of
    /// `syncagent --once --dry-run`, worked out without fetching anything.
    public struct PreviewedFeed: Sendable, Equatable {
        /// Why a feed would be checked.
        public enum Reason: Sendable, Equatable {
            /// Never checked at this URL: its first sight decides which episodes are fetched.
            case neverChecked
            /// Checked before: asked for again only if it changed on the server. `schedule`
            /// is what the agent's schedule says of it now: `nil` when it is due, else why
            /// it would wait.
            case recheck(schedule: WaitReason?)
            /// The last check failed with this message.
            case failedLastTime(String)
        }

        /// Why a feed would not be checked.
        public enum Skip: Sendable, Equatable {
            /// The user paused or stopped it.
            case held(Hold)
            /// Its server answered 410 Gone.
            case gone
            /// It waits for this reason (for `--once`, only a server's `Retry-After`).
            case waiting(WaitReason)
        }

        public enum Decision: Sendable, Equatable {
            case check(Reason)
            case skip(Skip)
        }

        public var title: String
        public var url: String
        /// The absolute folder its episodes go in.
        public var folder: String
        public var decision: Decision
    }

    /// What the next scheduling round would do with each feed of the manifest, in manifest
    /// order: the same records and the same ``Scheduler`` as the round's phase 1, nothing
    /// fetched, nothing saved.
    public func previewFeeds(conditions: Conditions? = nil) throws(StateStoreError) -> [PreviewedFeed] {
        guard let manifest else { return [] }
        let now = self.now()
        let conditions = conditions ?? .favourable
        let scheduler = Scheduler(timeZone: timeZone)
        return try manifest.feeds.map { feed throws(StateStoreError) in
            let folder = manifest.folderPath(of: feed)
            let record = try store.feedRecord(forFolder: folder)
            var previewed = PreviewedFeed(title: feed.title, url: feed.url, folder: folder, decision: .check(.neverChecked))
            let asked = scheduledFeed(feed, folder: folder, record: record, requestedByUser: mode == .everyFileNow || requestedNow.contains(folder))
            if let hold = record?.hold {
                previewed.decision = .skip(.held(hold))
            } else if Self.skipsChecks(of: feed, record: record) {
                previewed.decision = .skip(.gone)
            } else if let wait = scheduler.plan([asked], at: now, conditions: conditions).waiting.first?.reason {
                previewed.decision = .skip(.waiting(wait))
            } else if let record, record.url == feed.url, record.lastCheck != nil {
                let onSchedule = scheduledFeed(feed, folder: folder, record: record, requestedByUser: false)
                previewed.decision = .check(record.lastError.map { .failedLastTime($0) }
                    ?? .recheck(schedule: scheduler.waitReason(for: onSchedule, at: now, conditions: conditions)))
            }
            return previewed
        }
    }
}
