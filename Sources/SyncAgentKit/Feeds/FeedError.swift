/// Why a feed's body could not be read as a feed. A broken feed is always this error, never
/// an empty feed: a caller that sees it changes nothing it knew about the feed's episodes.
public typealias FeedError = DomainError<FeedDomain>

/// Where a ``FeedError`` comes from (see ``DomainError``).
public enum FeedDomain {}

extension ErrorCode where Domain == FeedError {
    /// The body is empty (or only white space).
    public static let empty = Self("empty")
    /// The body is a web page (a captive portal, a login or error page), not a feed.
    public static let webPage = Self("web-page")
    /// The body is not well-formed XML.
    public static let notXML = Self("not-xml")
    /// The body ends before the document does: a cut transfer.
    public static let truncated = Self("truncated")
    /// The document is XML, but its root is neither RSS, Atom nor RDF.
    public static let notAFeed = Self("not-a-feed")
    /// The document declares entities or attribute defaults in a DTD (entity bombs, external
    /// entities): refused before anything is expanded or loaded.
    public static let declarations = Self("dtd-declarations")
    /// The body is larger than ``FeedLimits/maximumBytes``.
    public static let tooLarge = Self("too-large")
    /// The feed has more items than ``FeedLimits/maximumItems``.
    public static let tooManyItems = Self("too-many-items")
    /// Elements nest deeper than ``FeedLimits/maximumDepth``.
    public static let tooDeep = Self("too-deep")
    /// An element has more attributes than ``FeedLimits/maximumAttributes``.
    public static let tooManyAttributes = Self("too-many-attributes")
    /// A field the parser keeps is longer than ``FeedLimits/maximumFieldBytes``.
    public static let fieldTooLong = Self("field-too-long")
}
