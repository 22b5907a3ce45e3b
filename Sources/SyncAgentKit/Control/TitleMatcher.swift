/// Finds the files a user names on the command line: by exact title or unambiguous prefix,
/// case-blind.
public enum TitleMatcher {
    /// The indexes into `titles` that `queries` name, in `titles` order; all of them when
    /// `queries` is empty. Throws a message that lists close matches when a query names
    /// none, and the candidates when it names several.
    public static func match(_ queries: [String], in titles: [String]) throws(TitleMatchError) -> [Int] {
        guard !queries.isEmpty else { return Array(titles.indices) }
        let folded = titles.map { $0.lowercased() }
        var chosen = Set<Int>()
        for query in queries {
            let wanted = query.lowercased()
            if let exact = folded.firstIndex(of: wanted) {
                chosen.insert(exact)
                continue
            }
            let prefixed = folded.indices.filter { folded[$0].hasPrefix(wanted) }
            switch prefixed.count {
            case 1:
                chosen.insert(prefixed[0])
            case 0:
                let close = closeMatches(for: wanted, in: titles)
                let hint = close.isEmpty ? "`syncagent status` lists the titles" : "did you mean " + close.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
                throw TitleMatchError(message: "no file is titled \"\(query)\"; \(hint)")
            default:
                let names = prefixed.map { "\"\(titles[$0])\"" }.joined(separator: ", ")
                throw TitleMatchError(message: "\"\(query)\" could be any of \(names); type more of the title")
            }
        }
        return chosen.sorted()
    }

    /// The entries of `manifest` that `queries` name, in manifest order; all of them when
    /// `queries` is empty.
    public static func entries(_ queries: [String], in manifest: Manifest) throws(TitleMatchError) -> [Manifest.Entry] {
        try match(queries, in: manifest.files.map(\.title)).map { manifest.files[$0] }
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
