/// Finds places in UTF-8 text the way libyaml counts them: lines, and characters (not bytes).
enum TextPosition {
    /// The line and column of the character that starts at, or contains, byte `offset`.
    ///
    /// Only libyaml's reader errors need this, and only once, so a walk from the start is fine.
    static func mark(ofByteOffset offset: Int, in bytes: [UInt8]) -> YAMLMark {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return YAMLMark(line: line, column: column)
    }

    /// The place just after the last character, with lines counted as libyaml counts them
    /// (`\r\n`, `\r`, `\n`, U+0085, U+2028 and U+2029 each end a line; a byte order mark
    /// takes no column).
    ///
    /// libyaml ends a text that lacks a final line break with one of its own, so its marks at
    /// the end of such a text name a line that is not there: clamped to this place instead.
    static func end(of bytes: [UInt8]) -> YAMLMark {
        var line = 1
        var column = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            let byte = bytes[index]
            var lineBreakLength = 0
            if byte == 0x0D {
                lineBreakLength = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            } else if byte == 0x0A {
                lineBreakLength = 1
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                lineBreakLength = 2
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                lineBreakLength = 3
            }
            if lineBreakLength > 0 {
                line += 1
                column = 1
                index += lineBreakLength
            } else {
                if byte & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
        }
        return YAMLMark(line: line, column: column)
    }

    /// The character at character `index` (libyaml's `mark.index`), or nil past the end.
    static func character(atIndex index: Int, in bytes: [UInt8]) -> Character? {
        var seen = -1
        var start: Int?
        for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
            seen += 1
            if seen == index {
                start = offset
                break
            }
        }
        guard let start else { return nil }
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self).first
    }
}
