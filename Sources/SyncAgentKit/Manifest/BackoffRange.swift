/// A retry backoff written `MIN..MAX`, such as `1s..1m` or `500ms..2h`.
///
/// Units: `ms`, `s`, `m`, `h`, `d`; amounts are whole numbers. The first wait must be above
/// zero (doubling zero never grows) and not above the longest.
struct BackoffRange: Sendable, Equatable {
    /// The first wait.
    var minimum: Duration
    /// The longest wait.
    var maximum: Duration

    /// Why a text is not a backoff range; the message completes "backoff …".
    struct Problem: Error, Sendable, Equatable {
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    /// The largest amount accepted in any unit, so that days stay far from overflow.
    private static let largestAmount: Int64 = 1_000_000

    /// Reads `text` as `MIN..MAX`.
    static func parse(_ text: String) throws(Problem) -> BackoffRange {
        let expected = "expected a range like \"1s..1m\" for `backoff` (units ms, s, m, h, d), found \(TextQuoting.quoted(text))"
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // "1s..1m" splits on each dot into ["1s", "", "1m"].
        guard parts.count == 3, parts[1].isEmpty,
              let minimum = duration(parts[0]), let maximum = duration(parts[2])
        else {
            throw Problem(message: expected)
        }
        guard minimum > .zero else {
            throw Problem(message: "`backoff` must start above zero, found \(TextQuoting.quoted(text))")
        }
        guard minimum <= maximum else {
            throw Problem(message: "`backoff` starts above its maximum in \(TextQuoting.quoted(text)); expected MIN..MAX with MIN no longer than MAX")
        }
        return BackoffRange(minimum: minimum, maximum: maximum)
    }

    private static func duration(_ text: Substring.UTF8View) -> Duration? {
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
