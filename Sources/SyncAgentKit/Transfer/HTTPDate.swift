import CCurl
import Glibc

/// HTTP-dates ("Sun, 06 Nov 1994 08:49:37 GMT") to and from Unix time.
enum HTTPDate {
    /// Unix time of an HTTP-date in any of the three formats HTTP allows.
    /// - SeeAlso: https://curl.se/libcurl/c/curl_getdate.html
    static func parse(_ text: String) -> Int64? {
        let time = curl_getdate(text, nil)
        return time == -1 ? nil : Int64(time)
    }

    /// The IMF-fixdate form, independent of the process locale.
    static func format(_ unixTime: Int64) -> String {
        var time = time_t(unixTime)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
