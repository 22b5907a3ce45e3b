/// Text written straight into UTF-8 bytes, for the lines made once per file (a batch of 10,000
/// files makes 20,000 of them): a number interpolated into a string, or a string appended to
/// another, costs several hundred instructions where writing its bytes costs a few dozen.
extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes, as they are in the program (a one-character literal may be
    /// kept as its scalar, which `withUTF8Buffer` encodes).
    mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, as `"\(value)"` writes it: "-12", "0", "28600000".
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var place: UInt64 = 1
        while magnitude / place >= 10 { place *= 10 }
        while place > 0 {
            append(UInt8(ascii: "0") + UInt8(magnitude / place % 10))
            place /= 10
        }
    }

    /// Appends `value` in decimal, as `"\(value)"` writes it.
    mutating func appendDecimal(_ value: Int) {
        appendDecimal(Int64(value))
    }
}
