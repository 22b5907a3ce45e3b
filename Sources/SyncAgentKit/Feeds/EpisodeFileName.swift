import FoundationEssentials
import Glibc

/// The file name an episode is saved under: worked out once from a ``FileNameTemplate`` and
/// stored, so a later title edit never renames a file.
///
/// The name is safe on every filesystem a destination may be on, and can never be taken for
/// a staging file: NFC; `/`, NUL, control characters and `\:*?"<>|` replaced; bidi controls
/// dropped (they make "evil\u{202E}3pm.exe" look like "evilexe.mp3"); white space runs made
/// one space; leading and trailing dots and spaces stripped, so no name is hidden or starts
/// like `.NAME.part`; cut so that `.NAME.part` with a " (99)" before the extension still fits
/// in 255 bytes; the extension from the URL or media type.
public enum EpisodeFileName {
    /// The longest name made, in bytes, extension included: NAME_MAX (255) less what the
    /// staging name adds (".", ".part") and room for a collision suffix up to " (99)".
    public static let maximumBytes = 255 - 1 - StagingName.suffix.utf8.count - 5

    /// The name when nothing else is left after cleaning.
    static let fallback = "episode"

    /// The file name for `item`'s enclosure from the feed the manifest calls `feedTitle`.
    public static func make(for item: FeedItem, template: FileNameTemplate = .standard, feedTitle: String, maximumBytes: Int = maximumBytes) -> String {
        let url = item.enclosure?.url ?? ""
        let urlName = FeedURL.lastPathComponent(of: url)
        let urlStem = urlName.lastIndex(of: ".").map { String(urlName[..<$0]) } ?? urlName
        var text = ""
        for part in template.parts {
            switch part {
            case .text(let literal): text += literal
            case .date: text += item.published?.localDay ?? ""
            case .title: text += item.title
            case .episode: text += item.episode.map(String.init) ?? ""
            case .season: text += item.season.map(String.init) ?? ""
            case .feed: text += feedTitle
            case .urlName: text += urlStem
            }
        }
        let fileExtension = FileExtension.of(url: url, mediaType: item.enclosure?.mediaType).map { "." + $0 } ?? ""
        var stem = cleaned(text)
        if stem.isEmpty { stem = cleaned(urlStem) }
        if stem.isEmpty { stem = fallback }
        stem = cut(stem, toBytes: maximumBytes - fileExtension.utf8.count)
        let name = stem + fileExtension
        // Cleaning strips leading dots, so this cannot happen; checked with the transfer
        // side's own test because a name of that form would be another download's partial.
        precondition(!name.hasPrefix(".") && !StagingName.isReserved(name), "an episode name of a staging file's form: \(name.debugDescription)")
        return name
    }

    /// `text` made safe as (part of) one file name, as described on ``EpisodeFileName``.
    static func cleaned(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in String(decoding: text._nfcCodeUnits, as: UTF8.self).unicodeScalars {  // NFC, from the standard library
            switch scalar {
            case "/", "\\", "|": result.append("-")
            case ":": result.append(contentsOf: " -".unicodeScalars.dropFirst(result.last == " " ? 1 : 0))
            case "*", "?", "<", ">": result.append("_")
            case "\"": result.append("'")
            case _ where isBidiControl(scalar): continue
            case _ where scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator:
                if result.last != " " { result.append(" ") }
            default: result.append(scalar)
            }
        }
        return strip(String(result))
    }

    /// `text` without leading or trailing dots and spaces.
    private static func strip(_ text: String) -> String {
        let isEdge: (Unicode.Scalar) -> Bool = { $0 == "." || $0 == " " }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isEdge($0) }), let last = scalars.lastIndex(where: { !isEdge($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary, stripped again.
    private static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > limit { break }
            result.append(character)
        }
        let stripped = strip(result)
        return stripped.isEmpty ? fallback : stripped
    }

    /// The Unicode bidi formatting characters (ALM, LRM, RLM, embeddings, overrides, isolates).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
