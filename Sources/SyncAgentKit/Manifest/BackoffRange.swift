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

    /// Reads `text` as `MIN..MAX`.
    static func parse(_ text: String) throws(Problem) -> BackoffRange {
        let expected = "expected a range like \"1s..1m\" for `backoff` (units \(DurationText.units)), found \(TextQuoting.quoted(text))"
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // "1s..1m" splits on each dot into ["1s", "", "1m"].
        guard parts.count == 3, parts[1].isEmpty,
              let minimum = DurationText.parse(parts[0]), let maximum = DurationText.parse(parts[2])
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
}
