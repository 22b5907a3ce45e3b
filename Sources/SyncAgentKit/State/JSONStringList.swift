/// A list of strings as a JSON array, the way ``StateStore/records(forPaths:)`` hands
/// thousands of paths to SQLite's `json_each` in one parameter. Written by hand: the
/// `JSONEncoder` took 5,700 instructions a path, more than the query that reads its record.
enum JSONStringList {
    /// `["a","b\"c"]`: each string quoted, with `"`, `\` and control characters escaped
    /// (RFC 8259 §7); everything else, UTF-8 included, as it is.
    static func encode(_ strings: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
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
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
