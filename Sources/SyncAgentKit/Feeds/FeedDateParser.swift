/// Reads the dates feeds write: RFC 822/1123 (`pubDate`) with the usual mistakes, and RFC 3339
/// (Atom, `dc:date`). Pure: no clock, no locale, no time zone database.
///
/// Mistakes forgiven in RFC 822 dates, all seen in real feeds: no weekday, a wrong weekday, a
/// full month or weekday name ("September", "Tuesday"), the month before the day, two-digit
/// years (00–49 are 20xx), no seconds, no zone (UTC), named zones of North America and Europe
/// ("EST", "PDT", "CEST"), "GMT+2" or "UTC-05:00", "+02:00", extra spaces and commas.
public enum FeedDateParser {
    /// The date in `text`, or nil when it cannot be read as either format.
    public static func parse(_ text: String) -> FeedDate? {
        let trimmed = text.trimmingFeedWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 100 else { return nil }
        let bytes = Array(trimmed.utf8)
        if bytes.count >= 10, bytes[0..<4].allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-") {
            return rfc3339(bytes)
        }
        return rfc822(trimmed)
    }

    /// An RFC 3339 date-time, or a date alone (midnight UTC); "T" or a space between date and
    /// time; seconds and fractions optional; no zone means UTC.
    public static func rfc3339(_ bytes: [UInt8]) -> FeedDate? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(exactly: 4), reader.skip("-"), let month = reader.number(exactly: 2),
              reader.skip("-"), let day = reader.number(exactly: 2)
        else { return nil }
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, offset = 0
        if !reader.atEnd {
            guard reader.skip("T") || reader.skip("t") || reader.skip(" "),
                  let h = reader.number(exactly: 2), reader.skip(":"), let m = reader.number(exactly: 2)
            else { return nil }
            (hour, minute) = (h, m)
            if reader.skip(":") {
                guard let s = reader.number(exactly: 2) else { return nil }
                second = s
                if reader.skip(".") || reader.skip(",") {
                    guard reader.digits() != nil else { return nil }
                }
            }
            if reader.skip("Z") || reader.skip("z") {
                offset = 0
            } else if !reader.atEnd {
                guard let sign = reader.sign(), let oh = reader.number(exactly: 2) else { return nil }
                _ = reader.skip(":")
                let om = reader.atEnd ? 0 : reader.number(exactly: 2)
                guard let om, oh <= 23, om <= 59 else { return nil }
                offset = sign * Int(oh * 3600 + om * 60)
            }
            guard reader.atEnd else { return nil }
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// An RFC 822/1123 date, forgiving the mistakes listed on ``FeedDateParser``.
    public static func rfc822(_ text: String) -> FeedDate? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var day: Int64?, month: Int64?, year: Int64?, time: (Int64, Int64, Int64)?, offset: Int?
        var index = 0
        while index < tokens.count {
            let token = tokens[index].lowercased()
            index += 1
            if time == nil, token.contains(":"), let parsed = clock(token) {
                time = parsed.time
                if let zone = parsed.zone { offset = zone }
            } else if month == nil, let named = monthNumber(token) {
                month = named
            } else if weekdays.contains(where: { token.hasPrefix($0) }), token.allSatisfy(\.isLetter) {
                continue
            } else if token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int64(token) {
                if token.count >= 3 || day != nil {
                    guard year == nil else { return nil }
                    year = token.count <= 2 ? (number < 50 ? 2000 + number : 1900 + number) : number
                } else {
                    day = number
                }
            } else if time != nil, offset == nil, let zone = zoneOffset(token) {
                offset = zone
            } else if time != nil, offset == nil, (token == "+" || token == "-"), index < tokens.count,
                      let zone = zoneOffset(token + tokens[index].lowercased()) {
                // "GMT + 2" and "+ 0200": a sign on its own.
                index += 1
                offset = zone
            } else {
                return nil
            }
        }
        guard let day, let month, let year else { return nil }
        let (hour, minute, second) = time ?? (0, 0, 0)
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset ?? 0)
    }

    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    /// Named zones seen in feeds, with their offsets in hours (US, UK and central Europe).
    private static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "wet": 0, "bst": 1, "cet": 1, "met": 1, "cest": 2, "eet": 2, "eest": 3,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3, "nzst": 12, "nzdt": 13,
        "aest": 10, "aedt": 11, "jst": 9,
    ]

    private static func monthNumber(_ token: String) -> Int64? {
        guard token.count >= 3, token.allSatisfy(\.isLetter) else { return nil }
        let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        for (index, name) in full.enumerated() where name.hasPrefix(token) || token == "sept" && index == 8 {
            return Int64(index + 1)
        }
        return months.firstIndex(of: token).map { Int64($0 + 1) }
    }

    /// "hh:mm", "hh:mm:ss", "hh:mm:ss.fff", possibly followed at once by a zone ("12:00:00z",
    /// "12:00+0200").
    private static func clock(_ token: String) -> (time: (Int64, Int64, Int64), zone: Int?)? {
        let bytes = Array(token.utf8)
        var reader = DigitReader(bytes: bytes)
        guard let hour = reader.digits(max: 2), reader.skip(":"), let minute = reader.number(exactly: 2) else { return nil }
        var second: Int64 = 0
        if reader.skip(":") {
            guard let s = reader.number(exactly: 2) else { return nil }
            second = s
            if reader.skip(".") { _ = reader.digits() }
        }
        if reader.atEnd { return ((hour, minute, second), nil) }
        guard let zone = zoneOffset(String(decoding: bytes[reader.position...], as: UTF8.self)) else { return nil }
        return ((hour, minute, second), zone)
    }

    /// A zone: a name, "+hhmm", "+hh:mm", "+hh", optionally after "GMT" or "UTC".
    private static func zoneOffset(_ token: String) -> Int? {
        if let hours = namedZones[token] { return hours * 3600 }
        var rest = Substring(token)
        for prefix in ["gmt", "utc", "ut"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        var reader = DigitReader(bytes: Array(rest.utf8))
        guard let sign = reader.sign(), let digits = reader.digits(max: 4) else { return nil }
        let width = reader.position - 1
        var hours = digits, minutes: Int64 = 0
        if width >= 3 {
            (hours, minutes) = (digits / 100, digits % 100)
        } else if reader.skip(":") {
            guard let m = reader.number(exactly: 2) else { return nil }
            minutes = m
        }
        guard reader.atEnd, hours <= 23, minutes <= 59 else { return nil }
        return sign * Int(hours * 3600 + minutes * 60)
    }

    private static func make(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, offset: Int) -> FeedDate? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= FeedDate.daysIn(month: month, year: year),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              hour < 24 || (minute == 0 && second == 0)
        else { return nil }
        let local = FeedDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + min(second, 59)
        return FeedDate(secondsSince1970: local - Int64(offset), utcOffset: offset)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// Reads numbers and punctuation from ASCII bytes, left to right.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    /// One to `max` digits (at most 9), or nil when none.
    mutating func digits(max: Int = 9) -> Int64? {
        var value: Int64 = 0
        let start = position
        while position < bytes.count, position - start < max, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        if max == 9 {
            // Fractions of a second: any number of digits, ignored past the ninth.
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        }
        return position > start ? value : nil
    }

    mutating func number(exactly count: Int) -> Int64? {
        let start = position
        guard let value = digits(max: count), position - start == count else {
            position = start
            return nil
        }
        return value
    }
}

extension StringProtocol {
    /// The text without XML white space (space, tab, CR, LF) at either end.
    func trimmingFeedWhitespace() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
