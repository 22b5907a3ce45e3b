/// The caps that keep a hostile or broken feed from costing unbounded time or memory.
///
/// Each one is far above what a real podcast feed needs and low enough that the parse of any
/// body stays small: memory is bounded by ``maximumBytes`` (nothing in a feed can grow beyond
/// the bytes it came in, because DTD entities and attribute defaults are refused) and by
/// ``maximumURLBytes`` (the only text that resolving can make longer). A cap that is hit is
/// a ``FeedError`` naming it; the caller's feed then changes nothing.
public struct FeedLimits: Sendable, Equatable {
    /// The most bytes of body read, after any `Content-Encoding` is undone (32 MiB). The largest
    /// real podcast feeds, with thousands of episodes and full show notes, are a few MiB.
    public var maximumBytes: Int
    /// The most items (or Atom entries) in one feed. A daily show over 30 years has ~11,000.
    public var maximumItems: Int
    /// The deepest element nesting. Feeds nest under 10 levels; XHTML content a few more.
    public var maximumDepth: Int
    /// The most attributes on one element. Real elements carry a handful; the cap stops an
    /// element with 200,000 attributes before the parser does any work per attribute.
    public var maximumAttributes: Int
    /// The longest text kept for one field (a title, guid, date, attribute). Show notes are
    /// never kept, so this bounds only what is stored per item.
    public var maximumFieldBytes: Int
    /// The longest enclosure URL after resolving it against `xml:base`; longer ones are dropped
    /// with a warning (curl and servers refuse much shorter ones anyway).
    public var maximumURLBytes: Int

    /// The defaults described on each property.
    public static let standard = FeedLimits(
        maximumBytes: 32 << 20, maximumItems: 100_000, maximumDepth: 64,
        maximumAttributes: 256, maximumFieldBytes: 64 << 10, maximumURLBytes: 8 << 10
    )

    /// Limits as given; ``standard`` is what callers normally want.
    public init(maximumBytes: Int, maximumItems: Int, maximumDepth: Int, maximumAttributes: Int, maximumFieldBytes: Int, maximumURLBytes: Int) {
        self.maximumBytes = maximumBytes
        self.maximumItems = maximumItems
        self.maximumDepth = maximumDepth
        self.maximumAttributes = maximumAttributes
        self.maximumFieldBytes = maximumFieldBytes
        self.maximumURLBytes = maximumURLBytes
    }
}
