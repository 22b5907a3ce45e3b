/// One name an episode is known by. An episode is downloaded once, ever: a later parse finds
/// it again by any of its keys, so feeds that edit guids, rotate `?token=` query strings or
/// move to https do not bring it back.
public struct EpisodeKey: Hashable, Sendable, CustomStringConvertible {
    /// What the key is made of, strongest first.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        /// The item's guid (or Atom id), exactly as written after trimming.
        case guid
        /// The enclosure URL's host and path, without scheme, query or fragment.
        case url
        /// The title (case and white space folded) and the UTC day it was published.
        case titleDay = "title-day"

        /// Strongest first: the order keys are tried in.
        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// What the key is made of.
    public var kind: Kind
    /// The key's text.
    public var value: String

    /// A key as given (as stored by a later slice).
    public init(_ kind: Kind, _ value: String) {
        self.kind = kind
        self.value = value
    }

    /// "kind:value", for storage and logs.
    public var description: String { kind.rawValue + ":" + value }

    /// Every key `item` can be known by, strongest first; empty when it has none (no guid, no
    /// enclosure, and no title or no date).
    public static func keys(of item: FeedItem) -> [EpisodeKey] {
        var keys: [EpisodeKey] = []
        if let guid = item.guid, !guid.isEmpty { keys.append(EpisodeKey(.guid, guid)) }
        if let url = item.enclosure?.url { keys.append(EpisodeKey(.url, FeedURL.identityKey(of: url))) }
        let title = FeedBuilder.collapsingWhitespace(item.title).lowercased()
        if let published = item.published, !title.isEmpty {
            keys.append(EpisodeKey(.titleDay, published.utcDay + " " + title))
        }
        return keys
    }
}
