/// A file name template for episodes: text with placeholders, `{date} {title}` by default.
///
/// Placeholders: `{date}` (the day published, YYYY-MM-DD, as the publisher wrote it),
/// `{title}`, `{episode}` and `{season}` (iTunes numbers), `{feed}` (the feed's title in the
/// manifest), `{url_name}` (the enclosure's file name without extension). The extension is
/// never part of the template: ``EpisodeFileName`` adds it.
public struct FileNameTemplate: Sendable, Equatable {
    /// A piece of a template.
    public enum Part: Sendable, Equatable {
        /// Literal text, cleaned like the rest of the name.
        case text(String)
        /// `{date}`, `{title}`, `{episode}`, `{season}`, `{feed}`, `{url_name}`.
        case date, title, episode, season, feed, urlName
    }

    /// The pieces, in order.
    public var parts: [Part]

    /// `{date} {title}`.
    public static let standard = FileNameTemplate(parts: [.date, .text(" "), .title])

    /// Why a template cannot be used, as a sentence without a final period.
    public struct Problem: Error, Sendable, Equatable {
        /// The sentence.
        public var message: String
    }

    private static let placeholders: [String: Part] = [
        "date": .date, "title": .title, "episode": .episode, "season": .season, "feed": .feed, "url_name": .urlName,
    ]

    /// Reads a template; an unknown or unclosed placeholder, or a template with no placeholder
    /// that tells episodes apart, is a ``Problem``.
    public static func parse(_ text: String) throws(Problem) -> FileNameTemplate {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Problem(message: "the name template \(TextQuoting.quoted(text)) has a \"{\" without its \"}\"")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let part = placeholders[name] else {
                let known = placeholders.keys.sorted().map { "{\($0)}" }.joined(separator: " ")
                throw Problem(message: "the name template \(TextQuoting.quoted(text)) has the unknown placeholder {\(TextQuoting.quoted(name).dropFirst().dropLast())}; known are \(known)")
            }
            parts.append(part)
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        guard parts.contains(where: { [.title, .episode, .urlName, .date].contains($0) }) else {
            throw Problem(message: "the name template \(TextQuoting.quoted(text)) names every episode the same; use {title}, {date}, {episode} or {url_name}")
        }
        return FileNameTemplate(parts: parts)
    }
}
