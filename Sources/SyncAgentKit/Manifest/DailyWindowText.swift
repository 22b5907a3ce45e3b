/// The `window` key: a daily span of local time written `HH:MM-HH:MM`, such as `01:00-06:00`
/// or `22:00-06:00` (which crosses midnight).
///
/// Hours may have one digit (`1:00`); the end may be `24:00`, the same as `00:00`. The text
/// is only checked here: which instants it covers depends on the time zone the agent runs
/// in, so the scheduler works that out.
enum DailyWindowText {
    /// Reads `text` as a window whose start and end differ.
    static func parse(_ text: String) throws(ValueProblem) -> Manifest.DailyWindow {
        let shown = TextQuoting.quoted(text)
        let halves = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard halves.count == 2, let start = clockTime(halves[0]), let end = clockTime(halves[1]) else {
            throw ValueProblem("expected a daily window of local time like \"01:00-06:00\" for `window`, found \(shown)")
        }
        let midnight = 24 * 60
        guard start.hours < 24, end.hours < 24 || (end.hours == 24 && end.minutes == 0), start.minutes < 60, end.minutes < 60 else {
            throw ValueProblem("`window` \(shown) has a time of day that does not exist; hours run from 00 to 23 and minutes from 00 to 59")
        }
        let startMinute = start.hours * 60 + start.minutes
        let endMinute = (end.hours * 60 + end.minutes) % midnight
        guard startMinute != endMinute else {
            throw ValueProblem("`window` \(shown) starts and ends at the same time; to allow any time of day, leave `window` out")
        }
        return Manifest.DailyWindow(start: startMinute, end: endMinute)
    }

    /// `H:MM` or `HH:MM`, spaces around it ignored; the numbers are not range-checked yet.
    private static func clockTime(_ text: Substring.UTF8View) -> (hours: Int, minutes: Int)? {
        var bytes = Array(text)
        while bytes.first == UInt8(ascii: " ") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hours = number(parts[0]), let minutes = number(parts[1])
        else { return nil }
        return (hours, minutes)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
