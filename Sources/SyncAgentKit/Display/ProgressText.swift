/// Text made safe and measured for a terminal: control characters replaced, widths counted
/// in terminal columns, long text cut with "…".
///
/// Titles and failure messages come from the manifest and from servers; an escape sequence
/// in one of them must never reach the terminal, and a newline must never split a line.
public enum ProgressText {
    /// The character that stands in for a control character.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// `text` with every control character replaced: line breaks and tabs become a space,
    /// other C0/C1 controls, DEL and bidirectional overrides become "\u{FFFD}".
    ///
    /// Works on Unicode scalars, not Characters, because "\r\n" is one Character.
    public static func sanitized(_ text: String) -> String {
        // Printable ASCII, as most titles are, has nothing to replace: its bytes say so
        // without decoding a scalar each.
        if isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: { replacement(for: $0) != nil }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(replacement(for: scalar) ?? scalar)
        }
        return String(scalars)
    }

    /// How many terminal columns `text` takes: one per Character, two for east-Asian wide
    /// characters and emoji.
    public static func columns(of text: String) -> Int {
        // Printable ASCII takes a column a byte, with no grapheme breaking to find it out.
        if isPrintableASCII(text) { return text.utf8.count }
        // So does text of scalars that are each a narrow character of their own, as a
        // board's lines are ("—", "…"): a Character's width asks two emoji properties, some
        // 600 instructions, and a board measures each of its lines at every redraw.
        var count = 0
        for scalar in text.unicodeScalars {
            guard isNarrowCharacter(scalar) else { return text.reduce(0) { $0 + columns(of: $1) } }
            count += 1
        }
        return count
    }

    /// How many terminal columns `text` takes on screen when it may hold the SGR colour
    /// sequences of ``TerminalStyle/paint(_:_:)``: those take none. Text from outside never
    /// holds an escape (``sanitized(_:)`` replaced it), so every one found is ours.
    public static func visibleColumns(of text: String) -> Int {
        // Read as bytes: each line of the board is measured at every redraw, ten times a
        // second, and going through its scalars (a Unicode property looked up for each, each
        // appended to a new string) cost some 150,000 instructions a line. Our sequences are
        // ASCII ("ESC [ 1 ; 32 m"), so they are found and skipped without decoding anything.
        var text = text
        let visible: [UInt8]? = text.withUTF8 { bytes in
            guard bytes.contains(0x1B) else { return nil }
            var visible: [UInt8] = []
            visible.reserveCapacity(bytes.count)
            var inEscape = false
            for byte in bytes {
                if inEscape {
                    // An SGR sequence ends with its final byte, a letter.
                    let lowercased = byte | 0x20
                    if lowercased >= UInt8(ascii: "a"), lowercased <= UInt8(ascii: "z") { inEscape = false }
                } else if byte == 0x1B {
                    inEscape = true
                } else {
                    visible.append(byte)
                }
            }
            return visible
        }
        guard let visible else { return columns(of: text) }
        return columns(of: String(decoding: visible, as: UTF8.self))
    }

    /// How many terminal columns one Character takes.
    ///
    /// Ambiguous-width characters count as one, as in western locales; zero-width ones also
    /// count as one, because counting too many only leaves a gap while counting too few
    /// wraps the line and breaks the board.
    public static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isEastAsianWide(first) || first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji, character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    /// `text` cut to at most `width` columns, ending in `ellipsis` ("…", or "..." where the
    /// locale is not UTF-8) when something was cut. Where even the ellipsis does not fit,
    /// the text is cut bare.
    public static func truncated(_ text: String, toColumns width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        guard columns(of: text) > width else { return text }
        let ellipsisColumns = columns(of: ellipsis)
        let mark = ellipsisColumns <= width ? ellipsis : ""
        let room = width - (mark.isEmpty ? 0 : ellipsisColumns)
        var kept = ""
        var used = 0
        for character in text {
            let needed = columns(of: character)
            if used + needed > room { break }
            kept.append(character)
            used += needed
        }
        return kept + mark
    }

    /// `text` cut (ending in `ellipsis`) or padded with spaces on the right to exactly `width`
    /// columns.
    public static func leftAligned(_ text: String, inColumns width: Int, ellipsis: String = "…") -> String {
        let cut = truncated(text, toColumns: width, ellipsis: ellipsis)
        return cut + repeated(UInt8(ascii: " "), count: width - columns(of: cut))
    }

    /// `text` padded with spaces on the left to at least `width` columns; never cut.
    public static func rightAligned(_ text: String, inColumns width: Int) -> String {
        repeated(UInt8(ascii: " "), count: width - columns(of: text)) + text
    }

    /// `count` times the ASCII character `byte` ("   ", "####"), or "" for a count below one:
    /// written as bytes, where `String(repeating:count:)` appends a string at a time (some
    /// 3,600 instructions for a board row's padding, several a row at every redraw).
    static func repeated(_ byte: UInt8, count: Int) -> String {
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.initialize(repeating: byte)
            return count
        }
    }

    /// Whether every byte of `text` is printable ASCII: read from its UTF-8 storage, where going
    /// through `utf8`'s iterator cost some 30 instructions a byte (a plain line asks twice a file).
    private static func isPrintableASCII(_ text: String) -> Bool {
        let isPrintable: (UInt8) -> Bool = { $0 >= 0x20 && $0 < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintable) } ?? text.utf8.allSatisfy(isPrintable)
    }

    /// Whether `scalar` is always a Character of its own, one column wide: printable ASCII,
    /// Latin-1 and the Latin blocks before the combining marks, general punctuation ("—",
    /// "…") without its joiners, controls and bidirectional marks, arrows, box drawing, block
    /// elements and geometric shapes before the two drawn as emoji. None of them is wide, drawn
    /// as an emoji by default, or joined to its neighbours in a grapheme cluster; a text
    /// style variation selector (U+FE0F) is not among them, so an emoji asked for is measured
    /// the long way.
    static func isNarrowCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x25FC:
            return true
        default:
            return false
        }
    }

    private static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029:
            return " "
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
            return Self.replacement
        default:
            return nil
        }
    }

    /// The CJK blocks of Unicode's East Asian Wide and Fullwidth classes (EastAsianWidth.txt,
    /// W and F), which terminals draw two columns wide; the standard library does not expose
    /// that property. Wide emoji are found through `isEmojiPresentation` instead.
    private static func isEastAsianWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
             0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
