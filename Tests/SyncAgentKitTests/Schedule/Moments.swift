import Foundation
@testable import SyncAgentKit

/// Berlin: clocks go forward 2026-03-29 at 02:00 (to 03:00) and back 2026-10-25 at 03:00 (to 02:00).
let berlin = TimeZone(identifier: "Europe/Berlin")!

/// A moment written in ISO 8601 with its offset, read by Foundation rather than by the code
/// under test, so a test states both the local time and the instant.
func moment(_ text: String) -> Date {
    guard let date = ISO8601DateFormatter().date(from: text) else { preconditionFailure("not an ISO 8601 moment: \(text)") }
    return date
}

/// A calendar day, for days the tests know exist.
func calendarDay(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay {
    guard let calendarDay = CalendarDay(year: year, month: month, day: day) else { preconditionFailure("no such day") }
    return calendarDay
}

/// What a local clock shows at that day and time, in ``WallClock`` local seconds.
func localTime(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Int64 {
    Int64(calendarDay(year, month, day).daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
}
