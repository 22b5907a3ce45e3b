import Glibc

/// HTTP-dates ("Sun, 06 Nov 1994 08:49:37 GMT") to and from Unix time, in Swift: no C
/// library outside its wrapper is needed for a date.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix time of an HTTP-date in any of the three formats HTTP allows (RFC 9110 §5.6.7):
    /// IMF-fixdate, the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37 GMT") and C's
    /// asctime form ("Sun Nov  6 08:49:37 1994"). All three name the same parts — weekday,
    /// day, month, year, time — in an order where the day comes before the year, so one
    /// reading of the tokens fits them all.
    static func parse(_ text: String) -> Int64? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }
        var numbers: [Int64] = []
        var month: Int64?
        var clock: [Int64]?
        for token in tokens {
            if token.contains(":") {
                let parts = token.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
                guard clock == nil, parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
                clock = parts.map { $0! }
            } else if let number = Int64(token), token.allSatisfy(\.isASCII) {
                numbers.append(number)
            } else if let index = months.firstIndex(where: { $0.lowercased() == token.lowercased() }) {
                guard month == nil else { return nil }
                month = Int64(index + 1)
            } else if token == "GMT" || token == "UTC" || days.contains(where: { token.hasPrefix($0) }) {
                continue
            } else {
                return nil
            }
        }
        guard let month, let clock, numbers.count == 2 else { return nil }
        let day = numbers[0]
        var year = numbers[1]
        // RFC 850's two-digit year: the nearest century that is not far in the future.
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        guard (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The IMF-fixdate form, independent of the process locale.
    static func format(_ unixTime: Int64) -> String {
        var time = time_t(unixTime)
        var parts = tm()
        gmtime_r(&time, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
