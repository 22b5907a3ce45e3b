import FoundationEssentials

/// What one good parse of a feed changes, worked out without I/O: which episodes are new
/// (to download, or to skip), which known ones gained aliases or a new enclosure URL, and
/// which downloaded ones `keep` and `max_age` delete.
///
/// An episode is downloaded once, ever: a known episode keeps its state however the feed
/// edits it, and an episode that vanishes from the feed changes nothing.
public struct FeedUpdate: Sendable, Equatable {
    /// An episode seen for the first time.
    public struct NewEpisode: Sendable, Equatable {
        /// The item, its chosen enclosure first.
        public var item: FeedItem
        /// Every key it is known by.
        public var keys: [EpisodeKey]
        /// Its file name, unique in the feed's folder among every episode ever known.
        public var fileName: String
        /// ``EpisodeState/wanted`` or ``EpisodeState/skipped``.
        public var state: EpisodeState
    }

    /// New episodes, in document order.
    public var added: [NewEpisode] = []
    /// Keys known episodes were found with for the first time (a new guid, a moved URL).
    public var aliases: [Int64: [EpisodeKey]] = [:]
    /// Known episodes not yet downloaded whose enclosure moved (CDNs rotate `?token=`):
    /// the next download uses the new one.
    public var movedEnclosures: [Int64: FeedEnclosure] = [:]
    /// Downloaded episodes to delete, leaving a tombstone: beyond `keep`, or older than
    /// `max_age`. Newest first.
    public var deleted: [Int64] = []
    /// What the parse dropped or doubted, and repeated guids.
    public var warnings: [FeedWarning] = []

    /// The new episodes to download.
    public var queued: [NewEpisode] { added.filter { $0.state == .wanted } }

    /// Whether nothing changes.
    public var isEmpty: Bool { added.isEmpty && aliases.isEmpty && movedEnclosures.isEmpty && deleted.isEmpty }

    /// What `feed`, as parsed now, changes for the episodes in `known`, under `settings`.
    /// `firstSight`: the feed was never parsed before, so only the newest `first` episodes
    /// are wanted.
    public static func plan(_ feed: Feed, known: [StoredEpisode], settings: Manifest.Feed, firstSight: Bool, now: Date) -> FeedUpdate {
        var update = FeedUpdate()
        let (listed, duplicates) = EpisodeList.episodes(of: feed, feedTitle: settings.title)
        update.warnings = feed.warnings + duplicates
        let episodes = listed.compactMap { withChosenEnclosure($0, types: settings.types) }
        let knownByID = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let matches = EpisodeMatcher.match(episodes, known: knownByID.mapValues(\.keys))
        let oldest = settings.maxAge.map { Int64(now.timeIntervalSince1970) - $0.components.seconds }
        var fresh: [Int] = []
        for (index, match) in matches.enumerated() {
            guard let id = match.known, let episode = knownByID[id] else {
                fresh.append(index)
                continue
            }
            if !match.newKeys.isEmpty { update.aliases[id] = match.newKeys }
            if let enclosure = episodes[index].enclosure, enclosure.url != episode.url, episode.state == .wanted || episode.state == .failed {
                update.movedEnclosures[id] = enclosure
            }
        }
        let wantedOnFirstSight = Set(newestFirst(fresh, of: episodes).enumerated().filter { settings.first.includes($0.offset) }.map(\.element))
        var taken = Set(known.map { $0.fileName.lowercased() })
        for index in fresh {
            let item = episodes[index]
            let tooOld = oldest.map { limit in item.published.map { $0.secondsSince1970 < limit } ?? false } ?? false
            let wanted = !tooOld && (!firstSight || wantedOnFirstSight.contains(index))
            let name = uniqueName(for: item, settings: settings, taken: taken)
            taken.insert(name.lowercased())
            update.added.append(NewEpisode(item: item, keys: EpisodeKey.keys(of: item), fileName: name, state: wanted ? .wanted : .skipped))
        }
        update.deleted = expired(known, keep: settings.keep, maxAge: settings.maxAge, now: now)
        return update
    }

    /// `item` with its first enclosure of a wanted kind moved to the front; nil when it has none.
    static func withChosenEnclosure(_ item: FeedItem, types: Set<Manifest.EnclosureKind>) -> FeedItem? {
        guard let chosen = item.enclosures.firstIndex(where: { types.contains(Manifest.EnclosureKind(of: $0)) }) else { return nil }
        var item = item
        item.enclosures.insert(item.enclosures.remove(at: chosen), at: 0)
        return item
    }

    /// `indices` of `episodes`, newest first: dated ones by date, then undated ones in
    /// document order (feeds list newest first).
    private static func newestFirst(_ indices: [Int], of episodes: [FeedItem]) -> [Int] {
        let dated = indices.filter { episodes[$0].published != nil }.sorted { episodes[$0].published! > episodes[$1].published! }
        return dated + indices.filter { episodes[$0].published == nil }
    }

    /// The episode's name, with " (2)", " (3)"… before the extension when another episode
    /// of the feed has it (compared without case: a destination may be on a FAT or exFAT disk).
    private static func uniqueName(for item: FeedItem, settings: Manifest.Feed, taken: Set<String>) -> String {
        let name = EpisodeFileName.make(for: item, template: settings.name, feedTitle: settings.title)
        guard taken.contains(name.lowercased()) else { return name }
        let fileExtension = FileExtension.of(url: item.enclosure?.url ?? "", mediaType: item.enclosure?.mediaType).map { "." + $0 } ?? ""
        let stem = fileExtension.isEmpty ? name : String(name.dropLast(fileExtension.count))
        var number = 2
        while true {
            let suffix = " (\(number))"
            // A name at the byte limit has room for " (99)"; beyond that the stem gives way.
            let room = EpisodeFileName.maximumBytes + 5 - suffix.utf8.count - fileExtension.utf8.count
            let candidate = SafeFileName.cut(stem, toBytes: room) + suffix + fileExtension
            if !taken.contains(candidate.lowercased()) { return candidate }
            number += 1
        }
    }

    /// Downloaded episodes beyond the newest `keep`, or published more than `maxAge` before
    /// `now`, newest first: what to delete, leaving tombstones. Worked out at each check and
    /// after each download (a new episode can push an old one out).
    public static func expired(_ known: [StoredEpisode], keep: Manifest.EpisodeCount, maxAge: Duration?, now: Date) -> [Int64] {
        let oldest = maxAge.map { Int64(now.timeIntervalSince1970) - $0.components.seconds }
        let done = known.filter { $0.state == .done }
        let dated = done.filter { $0.published != nil }.sorted { ($0.published!, $0.id) > ($1.published!, $1.id) }
        // Undated ones count as the newest (a feed without dates lists newest first, and an
        // undated file is never aged out): they are the last to go.
        let ordered = done.filter { $0.published == nil }.sorted { $0.id > $1.id } + dated
        return ordered.enumerated().filter { rank, episode in
            !keep.includes(rank) || (oldest.map { limit in episode.published.map { $0 < limit } ?? false } ?? false)
        }.map(\.element.id)
    }
}
