/// What a `pause`, `resume`, `stop` or `start` names: files, whole feeds (their checks and
/// every episode) and single episodes ("ATP/612").
public struct HoldTargets: Sendable {
    public var files: [Manifest.Entry] = []
    public var feeds: [Manifest.Feed] = []
    public var episodes: [Episode] = []

    /// One episode: the file it is transferred as, and where it stands in the state.
    public struct Episode: Sendable {
        public var entry: Manifest.Entry
        public var id: Int64
        public var state: EpisodeState
        /// The absolute folder of its feed: the feed's key in the state.
        public var folder: String
    }

    public init(files: [Manifest.Entry] = [], feeds: [Manifest.Feed] = [], episodes: [Episode] = []) {
        self.files = files
        self.feeds = feeds
        self.episodes = episodes
    }

    /// The files and the episodes' files, each a transfer of its own.
    var entries: [Manifest.Entry] { files + episodes.map(\.entry) }

    /// Every target's title, files first.
    var titles: [String] { files.map(\.title) + feeds.map(\.title) + episodes.map(\.entry.title) }
}

extension StoredEpisode {
    /// The episode as a file to transfer: titled "Feed/Episode", kept under its stored name in
    /// the feed's folder, on the feed's schedule.
    func entry(of feed: Manifest.Feed) -> Manifest.Entry {
        Manifest.Entry(title: feed.title + "/" + title, url: url, path: feed.folder + "/" + fileName, schedule: feed.schedule, maxSize: feed.maxSize)
    }
}

extension HoldTargets {
    /// The episodes a command can name, by their feed's folder: all but the tombstones.
    public static func namedEpisodes(of manifest: Manifest, store: StateStore) throws(StateStoreError) -> [String: [StoredEpisode]] {
        var episodes: [String: [StoredEpisode]] = [:]
        for feed in manifest.feeds {
            let folder = manifest.folderPath(of: feed)
            episodes[folder] = try store.episodes(ofFeed: folder).filter { $0.state != .deleted }
        }
        return episodes
    }
}
