import FoundationEssentials

/// The `not_before` key: an RFC 3339 moment with its offset (`2026-12-01T08:00:00+01:00`,
/// `2026-12-01T07:00:00Z`), or a day alone (`2026-12-01`), which means local midnight.
///
/// Seconds and their fraction may be left out (`2026-12-01T08:00+01:00`), and a space may
/// stand for the `T`. A time without an offset is refused: the same text would mean different
/// moments on different machines, and the user should say which one they mean.
enum NotBeforeText {
    /// Reads `text` as an instant or a day.
    static func parse(_ text: String) throws(ValueProblem) -> Manifest.NotBefore {
        let shown = TextQuoting.quoted(text)
        guard let written = Written(text) else {
            throw ValueProblem("expected a moment like \"2026-12-01T08:00:00+01:00\" or a day like \"2026-12-01\" for `not_before`, found \(shown)")
        }
        guard let day = CalendarDay(year: written.year, month: written.month, day: written.day) else {
            throw ValueProblem("`not_before` \(shown) names a day that does not exist")
        }
        guard let time = written.time else { return .day(day) }
        guard time.hour < 24, time.minute < 60, time.second < 60 else {
            throw ValueProblem("`not_before` \(shown) has a time of day that does not exist; hours run from 00 to 23, minutes and seconds from 00 to 59")
        }
        guard let offset = time.offset else {
            throw ValueProblem("`not_before` \(shown) has no time zone; add an offset such as \"+01:00\" (or \"Z\" for UTC), or write the day alone, such as \"\(day)\", to mean local midnight")
        }
        guard offset.hours < 24, offset.minutes < 60 else {
            throw ValueProblem("`not_before` \(shown) has an offset that does not exist; offsets run from -23:59 to +23:59")
        }
        let offsetSeconds = offset.sign * (offset.hours * 3600 + offset.minutes * 60)
        let wholeSeconds = day.daysSinceEpoch * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - offsetSeconds
        return .instant(Date(timeIntervalSince1970: Double(wholeSeconds) + time.fraction))
    }

    /// The numbers of a text that has the right shape; their ranges are not checked yet.
    private struct Written {
        struct Time {
            var hour: Int
            var minute: Int
            var second = 0
            var fraction = 0.0
            var offset: (sign: Int, hours: Int, minutes: Int)?
        }

        var year: Int
        var month: Int
        var day: Int
        var time: Time?

        init?(_ text: String) {
            var reader = Reader(Array(text.utf8))
            guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
                  let day = reader.digits(2)
            else { return nil }
            (self.year, self.month, self.day) = (year, month, day)
            if reader.isAtEnd { return }
            guard reader.skip("T") || reader.skip("t") || reader.skip(" "),
                  let hour = reader.digits(2), reader.skip(":"), let minute = reader.digits(2)
            else { return nil }
            var time = Time(hour: hour, minute: minute)
            if reader.skip(":") {
                guard let second = reader.digits(2) else { return nil }
                time.second = second
                if reader.skip(".") {
                    guard let fraction = reader.fraction() else { return nil }
                    time.fraction = fraction
                }
            }
            if reader.skip("Z") || reader.skip("z") {
                time.offset = (1, 0, 0)
            } else if let sign = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil {
                guard let hours = reader.digits(2), reader.skip(":"), let minutes = reader.digits(2) else { return nil }
                time.offset = (sign, hours, minutes)
            }
            guard reader.isAtEnd else { return nil }
            self.time = time
        }
    }

    /// Reads ASCII fields from the front of a text.
    private struct Reader {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { index == bytes.count }

        /// Consumes `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Consumes exactly `count` decimal digits.
        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard Self.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Consumes the digits after a decimal point (one to nine), as a fraction of one.
        mutating func fraction() -> Double? {
            let digits = bytes[index...].prefix(while: Self.isDigit)
            guard (1...9).contains(digits.count) else { return nil }
            index += digits.count
            return Double("0." + String(decoding: digits, as: UTF8.self))
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }
}
