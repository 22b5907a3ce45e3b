/// Where an episode stands. An episode is downloaded once, ever: no state leads back to
/// ``wanted`` on its own, only the user's `start`.
public enum EpisodeState: String, Sendable, CaseIterable {
    /// Not to be downloaded: older than `first` allowed on first sight, or than `max_age`.
    case skipped
    /// To be downloaded (queued, or under way).
    case wanted
    /// Downloaded into its file.
    case done
    /// Downloaded, then deleted by `keep` or `max_age`: a tombstone, so it never comes back.
    case deleted
    /// Its download failed for good (404, a web page instead of the file…); `start` tries again.
    case failed
}

/// One episode as the state remembers it: what it was ever known by, where it goes, and
/// where it stands.
public struct StoredEpisode: Sendable, Equatable {
    /// The state's id for it.
    public var id: Int64
    /// Every key it was ever known by (guids, enclosure URLs, title and day).
    public var keys: Set<EpisodeKey>
    /// The file name in its feed's folder, chosen once.
    public var fileName: String
    public var state: EpisodeState
    /// The title when last seen.
    public var title: String
    /// The enclosure URL to download from (the latest seen while not yet downloaded).
    public var url: String
    /// When it was published, in seconds since 1970; nil when the feed gave no date.
    public var published: Int64?
    /// The enclosure's length as the feed states it.
    public var length: Int64?

    public init(id: Int64, keys: Set<EpisodeKey>, fileName: String, state: EpisodeState, title: String, url: String,
                published: Int64? = nil, length: Int64? = nil) {
        self.id = id
        self.keys = keys
        self.fileName = fileName
        self.state = state
        self.title = title
        self.url = url
        self.published = published
        self.length = length
    }
}
