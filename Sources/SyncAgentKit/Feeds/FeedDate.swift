/// A publication date as a feed states it: an instant, and the UTC offset it was written in,
/// so a file name can show the day the publisher meant.
public struct FeedDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The offset from UTC the date was written with, in seconds (zero for "GMT" or none).
    public var utcOffset: Int

    /// A date as given.
    public init(secondsSince1970: Int64, utcOffset: Int = 0) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffset = utcOffset
    }

    /// The calendar day in the publisher's offset, "YYYY-MM-DD": what `{date}` shows.
    public var localDay: String { Self.dayText(secondsSince1970 + Int64(utcOffset)) }

    /// The calendar day in UTC, "YYYY-MM-DD": what episode identity uses, so a publisher
    /// that changes its time zone does not change an episode's key.
    public var utcDay: String { Self.dayText(secondsSince1970) }

    /// Ordered by instant only.
    public static func < (lhs: FeedDate, rhs: FeedDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// RFC 3339 in UTC, for logs and JSON.
    public var description: String {
        let days = Self.floorDivide(secondsSince1970, 86_400)
        let seconds = secondsSince1970 - days * 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return Self.dayText(secondsSince1970) + "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) + "Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days in `month` of `year`.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func dayText(_ seconds: Int64) -> String {
        // civil_from_days, the inverse of `days(year:month:day:)`.
        let z = floorDivide(seconds, 86_400) + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
    }

    /// `value / divisor` rounded towards minus infinity (dates before 1970 are negative).
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
