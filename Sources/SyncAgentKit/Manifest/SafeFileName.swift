import FoundationEssentials

/// Text made safe as one file or folder name on every filesystem a destination may be on:
/// NFC; `/`, NUL, control characters and `\:*?"<>|` replaced; bidi controls dropped (they
/// make "evil\u{202E}3pm.exe" look like "evilexe.mp3"); white space runs made one space;
/// leading and trailing dots and spaces stripped, so no name is hidden or starts like
/// `.NAME.part`.
///
/// Used for names that come from a feed (episode files) and for the folder a feed's title
/// gives by default.
enum SafeFileName {
    /// `text` cleaned as described on ``SafeFileName``; empty when nothing is left.
    static func cleaned(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in String(decoding: text._nfcCodeUnits, as: UTF8.self).unicodeScalars {  // NFC, from the standard library
            switch scalar {
            case "/", "\\", "|": result.append("-")
            case ":": result.append(contentsOf: " -".unicodeScalars.dropFirst(result.last == " " ? 1 : 0))
            case "*", "?", "<", ">": result.append("_")
            case "\"": result.append("'")
            case _ where scalar.isBidiControl: continue
            case _ where scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator:
                if result.last != " " { result.append(" ") }
            default: result.append(scalar)
            }
        }
        return strip(String(result))
    }

    /// `text` without leading or trailing dots and spaces.
    static func strip(_ text: String) -> String {
        let isEdge: (Unicode.Scalar) -> Bool = { $0 == "." || $0 == " " }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isEdge($0) }), let last = scalars.lastIndex(where: { !isEdge($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary, stripped again;
    /// empty when nothing is left.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > limit { break }
            result.append(character)
        }
        return strip(result)
    }
}
