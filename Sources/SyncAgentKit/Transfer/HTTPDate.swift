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
    ///
    /// Read on the UTF-8 bytes, token by token, with nothing allocated: every download reads
    /// its `Last-Modified`, and a parse through `String` tokens cost as much as a small file's
    /// whole transfer.
    static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            var fields = DateFields()
            var start = 0
            while start < bytes.count {
                guard !isSeparator(bytes[start]) else {
                    start += 1
                    continue
                }
                var end = start
                while end < bytes.count, !isSeparator(bytes[end]) { end += 1 }
                guard fields.take(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
                start = end
            }
            return fields.unixTime()
        }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "\t")
    }

    /// The parts of a date as its tokens name them. Kept without an array, and each token
    /// read in place: every download parses its `Last-Modified`, and the arrays a token's
    /// parts went into cost 6,700 instructions a date.
    private struct DateFields {
        /// The day and the year, in the order they came.
        var numbers: (first: Int64?, second: Int64?) = (nil, nil)
        var month: Int64?
        var clock: (hour: Int64, minute: Int64, second: Int64)?

        /// Reads one token; `false` when it cannot be part of an HTTP-date.
        mutating func take(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
            if let firstColon = token.firstIndex(of: UInt8(ascii: ":")) {
                // Exactly three parts, each a number: "08:49:37".
                guard clock == nil, let secondColon = token[(firstColon + 1)...].firstIndex(of: UInt8(ascii: ":")),
                      !token[(secondColon + 1)...].contains(UInt8(ascii: ":")),
                      let hour = HTTPDate.number(token[..<firstColon]),
                      let minute = HTTPDate.number(token[(firstColon + 1)..<secondColon]),
                      let second = HTTPDate.number(token[(secondColon + 1)...])
                else { return false }
                clock = (hour, minute, second)
            } else if let number = HTTPDate.number(token[...]) {
                if numbers.first == nil {
                    numbers.first = number
                } else if numbers.second == nil {
                    numbers.second = number
                } else {
                    return false
                }
            } else if let index = HTTPDate.monthIndex(token) {
                guard month == nil else { return false }
                month = Int64(index + 1)
            } else if !HTTPDate.isZoneOrWeekday(token) {
                return false
            }
            return true
        }

        func unixTime() -> Int64? {
            guard let month, let clock, let day = numbers.first, var year = numbers.second else { return nil }
            // RFC 850's two-digit year: the nearest century that is not far in the future.
            if year < 100 { year += year < 70 ? 2000 : 1900 }
            guard (1...31).contains(day), (0...23).contains(clock.hour), (0...59).contains(clock.minute), (0...60).contains(clock.second)
            else { return nil }
            return HTTPDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400
                + clock.hour * 3_600 + clock.minute * 60 + clock.second
        }
    }

    /// The value of a token of ASCII digits (at most 9 of them); `nil` for anything else.
    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        guard (1...9).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The index in ``months`` of a three-letter month name, in any case.
    private static func monthIndex(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
        guard token.count == 3 else { return nil }
        return monthBytes.firstIndex { $0[0] == token[0] | 0x20 && $0[1] == token[1] | 0x20 && $0[2] == token[2] | 0x20 }
    }

    /// "GMT", "UTC", or a weekday's name or abbreviation ("Sun", "Sunday").
    private static func isZoneOrWeekday(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        func startsWith(_ bytes: [UInt8]) -> Bool {
            token.count >= bytes.count && bytes.indices.allSatisfy { token[$0] == bytes[$0] }
        }
        return (token.count == 3 && (startsWith(zoneBytes[0]) || startsWith(zoneBytes[1]))) || dayBytes.contains(where: startsWith)
    }

    private static let zoneBytes = ["GMT", "UTC"].map { Array($0.utf8) }

    private static let monthBytes = months.map { Array($0.lowercased().utf8) }
    private static let dayBytes = days.map { Array($0.utf8) }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    fileprivate static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
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
