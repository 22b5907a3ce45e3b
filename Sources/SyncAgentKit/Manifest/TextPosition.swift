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
