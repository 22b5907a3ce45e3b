/// The episodes of one parse: items that have an enclosure, each guid once.
public enum EpisodeList {
    /// `feed`'s items with an enclosure, in document order, keeping for each guid only the
    /// newest item (by publication date; the first in the document when dates tie or are
    /// missing, since feeds list newest first); one warning names the guids that repeat.
    /// `feedTitle` names the feed in the warning.
    public static func episodes(of feed: Feed, feedTitle: String) -> (episodes: [FeedItem], warnings: [FeedWarning]) {
        let candidates = feed.items.filter { $0.enclosure != nil }
        var winner: [String: Int] = [:]
        var repeated: [String] = []
        for (index, item) in candidates.enumerated() {
            guard let guid = item.guid, !guid.isEmpty else { continue }
            guard let kept = winner[guid] else {
                winner[guid] = index
                continue
            }
            if !repeated.contains(guid) { repeated.append(guid) }
            if let date = item.published, candidates[kept].published.map({ date > $0 }) ?? true {
                winner[guid] = index
            }
        }
        let episodes = candidates.enumerated().filter { index, item in
            item.guid.flatMap { winner[$0] }.map { $0 == index } ?? true
        }.map(\.element)
        guard !repeated.isEmpty else { return (episodes, []) }
        let shown = repeated.prefix(3).map(TextQuoting.quoted).joined(separator: ", ") + (repeated.count > 3 ? " and \(repeated.count - 3) more" : "")
        let warning = FeedWarning(.duplicateGuid, "the feed \(TextQuoting.quoted(feedTitle)) gives more than one item the guid \(shown); only the newest of each is kept")
        return (episodes, [warning])
    }
}
