import FoundationEssentials

/// How long the state keeps the records of files and feeds that are no longer in the manifest,
/// and how often it looks: a pure policy, given the time.
///
/// What such a record is still worth: added back, a file finds its validators (a re-check
/// costs a 304), the name its server gave, its backoff and its hold; a feed finds its episodes
/// and their tombstones, so it fetches nothing it fetched before. Without its record a file
/// still on disk is re-checked by the modification time syncagent stamped from Last-Modified
/// (no download from a server that answers If-Modified-Since; one its server named is
/// downloaded again), and a feed takes its newest `first` episodes again.
///
/// So a record leaves the state only when nothing in the current manifest owns it and it has
/// not been touched for ``period`` — a file's last attempt or its partial download's last
/// write, a feed's last check. The period is what protects the records of another manifest
/// that shares the state folder (`--state-dir`): they are touched whenever that manifest runs.
/// A paused or stopped record is kept whatever its age: the hold is the user's word, and another
/// manifest may still hold the file. A feed's episodes and the records of the files in its
/// folder go with the feed's record, and stay as long as it stays.
public struct RecordRetention: Sendable, Equatable {
    /// How long an unowned record is kept after it was last touched.
    public var period: Duration
    /// The least time between two prunes.
    public var interval: Duration

    /// The policy syncagent runs: 90 days, looked at once a day. Longer than any schedule a
    /// manifest sensibly has, and a quarter in which another manifest sharing the state is
    /// likely to run once; the records cost only their bytes on disk until then, since a batch
    /// reads only its own.
    public static let standard = RecordRetention(period: .seconds(90 * 86_400), interval: .seconds(86_400))

    public init(period: Duration, interval: Duration) {
        self.period = period
        self.interval = interval
    }

    /// A record no entry of the manifest owns, as far as the policy needs it.
    public struct Unowned: Sendable, Equatable {
        /// A file's path, or a feed's folder.
        public var key: String
        /// Whether the user paused or stopped it.
        public var held: Bool
        /// When it was last touched; `nil` when never (a file's first download that never
        /// ended and left no partial, a feed never checked): it holds nothing worth keeping.
        public var lastTouched: Date?

        public init(key: String, held: Bool, lastTouched: Date?) {
            self.key = key
            self.held = held
            self.lastTouched = lastTouched
        }
    }

    /// What a prune forgets, by key.
    public struct Verdict: Sendable, Equatable {
        public var files: [String] = []
        public var feeds: [String] = []

        public init(files: [String] = [], feeds: [String] = []) {
            self.files = files
            self.feeds = feeds
        }
    }

    /// Whether a prune is due at `now`, the last one having run at `lastRun`. Never for a
    /// state never pruned (`nil`): the caller notes `now` as its first day instead, so a new
    /// state — nothing in it to forget — pays nothing on its first batch, often its biggest,
    /// and an older one is first pruned a day after this version first met it. A last run in
    /// the future (the clock was set back) does not put the next off until then.
    public func isDue(lastRun: Date?, now: Date) -> Bool {
        guard let lastRun else { return false }
        return lastRun > now || now.timeIntervalSince(lastRun) >= interval.timeInterval
    }

    /// Which of the unowned records go at `now`. `feeds` are the feed records no entry of the
    /// manifest owns; `files`, the file records no entry owns — all of them, or at least every
    /// one that ``expires(_:at:)`` and every one in the folder of a feed that does; `liveFeeds`,
    /// the folders of the manifest's feeds, whose files' records (episodes) stay with them.
    public func verdict(files: [Unowned], feeds: [Unowned], liveFeeds: Set<String>, now: Date) -> Verdict {
        var verdict = Verdict()
        var keptFeeds = liveFeeds
        let cutoff = cutoff(at: now)
        for feed in feeds {
            if expires(feed, cutoff: cutoff) { verdict.feeds.append(feed.key) } else { keptFeeds.insert(feed.key) }
        }
        let goneFeeds = Set(verdict.feeds)
        for file in files {
            switch owningFolder(of: file.key, among: keptFeeds, goneFeeds) {
            case .some(let folder) where goneFeeds.contains(folder): verdict.files.append(file.key)
            case .some: continue
            case .none: if expires(file, cutoff: cutoff) { verdict.files.append(file.key) }
            }
        }
        return verdict
    }

    /// The moment at or before which an unowned record's last touch is a whole period old.
    public func cutoff(at now: Date) -> Date {
        now.addingTimeInterval(-period.timeInterval)
    }

    /// Whether an unowned record, on its own, goes at `now`: not held, and untouched since
    /// ``cutoff(at:)`` (or never touched).
    public func expires(_ record: Unowned, at now: Date) -> Bool {
        expires(record, cutoff: cutoff(at: now))
    }

    private func expires(_ record: Unowned, cutoff: Date) -> Bool {
        guard !record.held else { return false }
        guard let touched = record.lastTouched else { return true }
        return touched <= cutoff
    }

    /// The nearest folder above `path` that is one of `kept` or `gone`, if any.
    private func owningFolder(of path: String, among kept: Set<String>, _ gone: Set<String>) -> String? {
        guard !kept.isEmpty || !gone.isEmpty else { return nil }
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            folder = folder[..<slash]
            let candidate = String(folder)
            if kept.contains(candidate) || gone.contains(candidate) { return candidate }
        }
        return nil
    }
}
