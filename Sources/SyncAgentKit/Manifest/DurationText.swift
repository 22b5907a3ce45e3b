/// A length of time as the manifest writes it: a whole number and a unit, such as `30s`, `6h`
/// or `1d`.
///
/// Units: `ms`, `s`, `m`, `h`, `d` (a day is 24 hours, whatever the clocks do that day).
enum DurationText {
    /// The units, as messages list them.
    static let units = "ms, s, m, h, d"

    /// The largest amount accepted in any unit, so that days stay far from overflow.
    private static let largestAmount: Int64 = 1_000_000

    /// The duration `text` writes, ignoring spaces around it; nil when it is not one.
    static func parse<Text: Collection<UInt8>>(_ text: Text) -> Duration? {
        var bytes = Array(text)
        while bytes.first == UInt8(ascii: " ") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 7 else { return nil }
        let amount = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        guard amount <= largestAmount else { return nil }
        switch String(decoding: bytes.dropFirst(digits.count), as: UTF8.self) {
        case "ms": return .milliseconds(amount)
        case "s": return .seconds(amount)
        case "m": return .seconds(amount * 60)
        case "h": return .seconds(amount * 3600)
        case "d": return .seconds(amount * 86_400)
        default: return nil
        }
    }
}
