/// Matches a new parse against the episodes already known, so an episode keeps its state
/// (downloaded, skipped, deleted) however its feed edits it.
public enum EpisodeMatcher {
    /// What became of one episode of the new parse.
    public struct Match<ID: Hashable & Sendable>: Sendable, Equatable {
        /// The known episode it is, or nil when it is new.
        public var known: ID?
        /// The kind of key it was found by; nil when new.
        public var foundBy: EpisodeKey.Kind?
        /// Its keys the known episode did not have yet (a new guid, a moved URL): to be
        /// recorded as aliases, so the next edit is matched too. All its keys when new.
        public var newKeys: [EpisodeKey]
    }

    /// For each of `episodes` (in order), the known episode it is, if any. `known` gives each
    /// known episode's keys (all it was ever known by).
    ///
    /// Keys are tried strongest first across the whole parse — every guid, then every URL,
    /// then every title and day — and each known episode is matched at most once, so a weak
    /// key never takes an episode that a stronger key gives to another item.
    public static func match<ID: Hashable & Sendable>(_ episodes: [FeedItem], known: [ID: Set<EpisodeKey>]) -> [Match<ID>] {
        var owner: [EpisodeKey: ID] = [:]
        for (id, keys) in known {
            for key in keys where owner[key] == nil { owner[key] = id }
        }
        let keys = episodes.map(EpisodeKey.keys(of:))
        var found: [(id: ID, kind: EpisodeKey.Kind)?] = Array(repeating: nil, count: episodes.count)
        var taken: Set<ID> = []
        for kind in EpisodeKey.Kind.allCases {
            for index in episodes.indices where found[index] == nil {
                for key in keys[index] where key.kind == kind {
                    if let id = owner[key], !taken.contains(id) {
                        found[index] = (id, kind)
                        taken.insert(id)
                        break
                    }
                }
            }
        }
        return episodes.indices.map { index in
            guard let match = found[index] else {
                return Match(known: nil, foundBy: nil, newKeys: keys[index])
            }
            return Match(known: match.id, foundBy: match.kind, newKeys: keys[index].filter { !(known[match.id]?.contains($0) ?? false) })
        }
    }
}
