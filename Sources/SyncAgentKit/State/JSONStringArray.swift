/// A list of strings as one JSON array, the way SQLite's `json_each` takes any number of
/// values through one bound parameter (bound parameters are capped at 32,766).
///
/// Written by hand: `JSONEncoder` goes through `Encodable`'s dynamic casts for every element,
/// some 5,700 instructions per path against a few hundred here — for a prune that passes a
/// 10,000-file manifest's paths, most of its cost.
enum JSONStringArray {
    /// `["a","b\"c"]`: each string quoted, `"` and `\` escaped, and the control characters
    /// JSON forbids raw as `\u00XX`.
    static func text(_ strings: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            var string = string
            string.withUTF8 { utf8 in
                // Most paths need no escape: copied whole, not byte by byte through the switch
                // (and a buffer, not the string's UTF-8 view, which costs more per byte).
                guard utf8.contains(where: Self.needsEscape) else {
                    bytes.append(contentsOf: utf8)
                    return
                }
                for byte in utf8 {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        bytes.append(UInt8(ascii: "\\"))
                        bytes.append(byte)
                    case 0..<0x20:
                        bytes.append(contentsOf: Array("\\u00".utf8))
                        bytes.append(hexDigits[Int(byte >> 4)])
                        bytes.append(hexDigits[Int(byte & 0xF)])
                    default:
                        bytes.append(byte)
                    }
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
