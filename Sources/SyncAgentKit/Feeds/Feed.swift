/// What one parse of a feed found: its title, its items in document order, where it says it
/// moved to, and what was dropped on the way.
public struct Feed: Sendable, Equatable {
    /// What the feed calls itself (RSS `channel/title`, Atom `feed/title`); empty when absent.
    public var title: String
    /// The items (RSS `item`, Atom `entry`) in the order the document lists them, duplicates
    /// included (``EpisodeList`` removes those).
    public var items: [FeedItem]
    /// `itunes:new-feed-url`: where the publisher says the feed now lives, resolved; nil when
    /// absent or not http(s).
    public var newFeedURL: String?
    /// What was dropped or doubtful, for the caller to show (each names the feed).
    public var warnings: [FeedWarning]

    /// A feed as given.
    public init(title: String, items: [FeedItem], newFeedURL: String? = nil, warnings: [FeedWarning] = []) {
        self.title = title
        self.items = items
        self.newFeedURL = newFeedURL
        self.warnings = warnings
    }
}

/// One item of a feed: an episode when it has an enclosure.
public struct FeedItem: Sendable, Hashable {
    /// The item's title, white space collapsed; empty when absent.
    public var title: String
    /// RSS `guid`, Atom `id` or RSS 1.0 `rdf:about`, trimmed; nil when absent or empty.
    public var guid: String?
    /// When it was published (`pubDate`, `published`, `dc:date`, else Atom `updated`); nil
    /// when absent or unreadable (a warning says which).
    public var published: FeedDate?
    /// The enclosures that can be downloaded, best first (RSS `enclosure`, Atom
    /// `link rel="enclosure"`, Media RSS `media:content` with a group's default first), all
    /// absolute http or https URLs.
    public var enclosures: [FeedEnclosure]
    /// `itunes:episode`, when it is a whole number.
    public var episode: Int?
    /// `itunes:season`, when it is a whole number.
    public var season: Int?
    /// `itunes:duration` in seconds, when readable ("1:02:03", "62:03", "3723").
    public var duration: Int?

    /// The enclosure to download: the first of ``enclosures``.
    public var enclosure: FeedEnclosure? { enclosures.first }

    /// An item as given.
    public init(title: String, guid: String? = nil, published: FeedDate? = nil, enclosures: [FeedEnclosure] = [], episode: Int? = nil, season: Int? = nil, duration: Int? = nil) {
        self.title = title
        self.guid = guid
        self.published = published
        self.enclosures = enclosures
        self.episode = episode
        self.season = season
        self.duration = duration
    }
}

/// A file an item offers.
public struct FeedEnclosure: Sendable, Hashable {
    /// The absolute http or https URL, resolved against `xml:base` and the feed's URL.
    public var url: String
    /// The media type the feed states (`audio/mpeg`), lowercased, parameters removed; nil when
    /// absent.
    public var mediaType: String?
    /// The length in bytes the feed states; nil when absent, zero or unreadable (feeds often
    /// write 0 or 1 when they do not know).
    public var length: Int64?

    /// An enclosure as given.
    public init(url: String, mediaType: String? = nil, length: Int64? = nil) {
        self.url = url
        self.mediaType = mediaType
        self.length = length
    }
}

/// Something a parse dropped or doubted, with a sentence that names the feed.
public struct FeedWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of thing happened, for code and tests.
    public enum Code: String, Sendable {
        /// An enclosure URL that is not http or https, or cannot be resolved: dropped.
        case enclosureDropped = "enclosure-dropped"
        /// A date that could not be read: the item has no date.
        case unreadableDate = "unreadable-date"
        /// A guid used by more than one item: only the newest is kept.
        case duplicateGuid = "duplicate-guid"
    }

    /// The kind of warning.
    public var code: Code
    /// One sentence for a person, without a trailing period.
    public var message: String

    /// A warning as given.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}
