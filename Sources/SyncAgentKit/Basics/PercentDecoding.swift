extension StringProtocol {
    /// The text with its `%XX` escapes decoded; `nil` when the bytes that gives are not UTF-8.
    /// A `%` not followed by two hex digits stays as it is.
    func percentDecoded() -> String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return String(self) }
        return String(validating: percentDecodedBytes(), as: UTF8.self)
    }

    /// The bytes the text's `%XX` escapes stand for, in whatever character set they are.
    /// A `%` not followed by two hex digits stays as it is.
    func percentDecodedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        var input = Array(utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%"), input.count >= 2,
               let high = hexDigitValue(input[input.startIndex]),
               let low = hexDigitValue(input[input.startIndex + 1]) {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}

/// The value of one hexadecimal digit, either case; `nil` for any other byte.
private func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
