/// Finds the files, feeds and episodes a user names on the command line: by exact title or
/// unambiguous prefix, case-blind.
public enum TitleMatcher {
    /// The indexes into `titles` that `queries` name, in `titles` order; all of them when
    /// `queries` is empty. Throws a message that lists close matches when a query names
    /// none, and the candidates when it names several.
    ///
    /// `kind` names what the titles are, for the message ("file"); `prefixable` says which
    /// titles a query may name by a prefix (all of them unless told).
    public static func match(
        _ queries: [String], in titles: [String], kind: String = "file", prefixable: (_ query: String, _ index: Int) -> Bool = { _, _ in true }
    ) throws(TitleMatchError) -> [Int] {
        guard !queries.isEmpty else { return Array(titles.indices) }
        let folded = titles.map { $0.lowercased() }
        var chosen = Set<Int>()
        for query in queries {
            let wanted = query.lowercased()
            if let exact = folded.firstIndex(of: wanted) {
                chosen.insert(exact)
                continue
            }
            let prefixed = folded.indices.filter { folded[$0].hasPrefix(wanted) && prefixable(wanted, $0) }
            switch prefixed.count {
            case 1:
                chosen.insert(prefixed[0])
            case 0:
                let close = closeMatches(for: wanted, in: titles)
                let hint = close.isEmpty ? "`syncagent status` lists the titles" : "did you mean " + close.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
                throw TitleMatchError(message: "no \(kind) is titled \"\(query)\"; \(hint)")
            default:
                let names = prefixed.map { "\"\(titles[$0])\"" }.joined(separator: ", ")
                throw TitleMatchError(message: "\"\(query)\" could be any of \(names); type more of the title")
            }
        }
        return chosen.sorted()
    }

    /// The files, feeds and episodes of `manifest` that `queries` name; every file and feed
    /// when `queries` is empty. An episode is named "Feed/Episode" (`episodes`: each feed's, by
    /// folder); a prefix names one only when it has the slash, so "AT" is the feed "ATP",
    /// never all its episodes.
    public static func targets(_ queries: [String], in manifest: Manifest, episodes: [String: [StoredEpisode]]) throws(TitleMatchError) -> HoldTargets {
        guard !queries.isEmpty else { return HoldTargets(files: manifest.files, feeds: manifest.feeds) }
        var listed: [HoldTargets.Episode] = []
        for feed in manifest.feeds {
            let folder = manifest.folderPath(of: feed)
            for episode in episodes[folder] ?? [] {
                listed.append(HoldTargets.Episode(entry: episode.entry(of: feed), id: episode.id, state: episode.state, folder: folder))
            }
        }
        let files = manifest.files.count
        let feeds = manifest.feeds.count
        let titles = manifest.files.map(\.title) + manifest.feeds.map(\.title) + listed.map(\.entry.title)
        let kind = feeds == 0 ? "file" : "file, feed or episode"
        var targets = HoldTargets()
        for index in try match(queries, in: titles, kind: kind, prefixable: { query, index in index < files + feeds || query.contains("/") }) {
            switch index {
            case ..<files: targets.files.append(manifest.files[index])
            case ..<(files + feeds): targets.feeds.append(manifest.feeds[index - files])
            default: targets.episodes.append(listed[index - files - feeds])
            }
        }
        return targets
    }

    /// Up to three titles within a few edits of `query`, or containing it, nearest first.
    private static func closeMatches(for query: String, in titles: [String]) -> [String] {
        let scored = titles.compactMap { title -> (String, Int)? in
            let lowered = title.lowercased()
            if lowered.contains(query) { return (title, 0) }
            let distance = KeySuggestion.editDistance(Array(query.unicodeScalars), Array(lowered.prefix(query.count + 2).unicodeScalars))
            return distance <= max(2, query.count / 3) ? (title, distance) : nil
        }
        return scored.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }
}

/// A command-line title that names no file, or several.
public struct TitleMatchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
