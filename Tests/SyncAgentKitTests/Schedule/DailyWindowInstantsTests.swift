import Foundation
import Testing
@testable import SyncAgentKit

/// ``Manifest/DailyWindow`` as instants: one opening a day, right across Berlin's clock changes.
struct DailyWindowInstantsTests {
    let clock = WallClock(timeZone: berlin)

    private func window(_ text: String) throws -> Manifest.DailyWindow {
        try DailyWindowText.parse(text)
    }

    private func span(_ text: String, on day: CalendarDay) throws -> Range<Date>? {
        try window(text).openSpan(onLocalDay: Int64(day.daysSinceEpoch), clock: clock)
    }

    @Test func opensAndClosesAtTheLocalTimesOnAnOrdinaryDay() throws {
        #expect(try span("01:00-06:00", on: calendarDay(2026, 6, 15)) == moment("2026-06-15T01:00:00+02:00")..<moment("2026-06-15T06:00:00+02:00"))
        #expect(try span("22:00-06:00", on: calendarDay(2026, 6, 15)) == moment("2026-06-15T22:00:00+02:00")..<moment("2026-06-16T06:00:00+02:00"))
    }

    @Test func lastsAnHourLessWhenTheClocksGoForwardInsideIt() throws {
        let spring = try #require(try span("01:00-06:00", on: calendarDay(2026, 3, 29)))
        #expect(spring == moment("2026-03-29T01:00:00+01:00")..<moment("2026-03-29T06:00:00+02:00"))
        #expect(spring.upperBound.timeIntervalSince(spring.lowerBound) == 4 * 3600)
        let overnight = try #require(try span("22:00-06:00", on: calendarDay(2026, 3, 28)))
        #expect(overnight.upperBound.timeIntervalSince(overnight.lowerBound) == 7 * 3600)
    }

    @Test func opensWhenTheClocksJumpPastAStartThatDoesNotHappen() throws {
        #expect(try span("02:30-04:00", on: calendarDay(2026, 3, 29)) == moment("2026-03-29T03:00:00+02:00")..<moment("2026-03-29T04:00:00+02:00"))
    }

    @Test func doesNotOpenWhenTheClocksSkipAllOfIt() throws {
        #expect(try span("02:15-02:45", on: calendarDay(2026, 3, 29)) == nil)
        #expect(try span("02:15-02:45", on: calendarDay(2026, 3, 30)) == moment("2026-03-30T02:15:00+02:00")..<moment("2026-03-30T02:45:00+02:00"))
    }

    @Test func lastsAnHourMoreWhenTheClocksGoBackInsideIt() throws {
        let autumn = try #require(try span("01:00-06:00", on: calendarDay(2026, 10, 25)))
        #expect(autumn == moment("2026-10-25T01:00:00+02:00")..<moment("2026-10-25T06:00:00+01:00"))
        #expect(autumn.upperBound.timeIntervalSince(autumn.lowerBound) == 6 * 3600)
    }

    @Test func closesAtTheFirstOccurrenceOfARepeatedEnd() throws {
        #expect(try span("02:00-02:30", on: calendarDay(2026, 10, 25)) == moment("2026-10-25T02:00:00+02:00")..<moment("2026-10-25T02:30:00+02:00"))
        #expect(try span("22:00-02:30", on: calendarDay(2026, 10, 24)) == moment("2026-10-24T22:00:00+02:00")..<moment("2026-10-25T02:30:00+02:00"))
    }

    @Test(arguments: [
        // Start inclusive, end exclusive.
        ("01:00-06:00", "2026-06-15T03:00:00+02:00", "2026-06-15T03:00:00+02:00"),
        ("01:00-06:00", "2026-06-15T01:00:00+02:00", "2026-06-15T01:00:00+02:00"),
        ("01:00-06:00", "2026-06-15T00:59:59+02:00", "2026-06-15T01:00:00+02:00"),
        ("01:00-06:00", "2026-06-15T05:59:59+02:00", "2026-06-15T05:59:59+02:00"),
        ("01:00-06:00", "2026-06-15T06:00:00+02:00", "2026-06-16T01:00:00+02:00"),
        ("01:00-06:00", "2026-06-15T12:00:00+02:00", "2026-06-16T01:00:00+02:00"),
        // Across midnight: yesterday's window is still open in the small hours.
        ("22:00-06:00", "2026-06-15T03:00:00+02:00", "2026-06-15T03:00:00+02:00"),
        ("22:00-06:00", "2026-06-15T06:00:00+02:00", "2026-06-15T22:00:00+02:00"),
        ("22:00-06:00", "2026-06-15T21:59:59+02:00", "2026-06-15T22:00:00+02:00"),
        ("22:00-06:00", "2026-06-15T23:30:00+02:00", "2026-06-15T23:30:00+02:00"),
        ("22:00-00:00", "2026-06-15T23:59:59+02:00", "2026-06-15T23:59:59+02:00"),
        ("22:00-00:00", "2026-06-16T00:00:00+02:00", "2026-06-16T22:00:00+02:00"),
        // Spring forward.
        ("01:00-06:00", "2026-03-29T01:59:59+01:00", "2026-03-29T01:59:59+01:00"),
        ("01:00-06:00", "2026-03-29T03:00:00+02:00", "2026-03-29T03:00:00+02:00"),
        ("01:00-06:00", "2026-03-29T06:00:00+02:00", "2026-03-30T01:00:00+02:00"),
        ("02:30-04:00", "2026-03-28T12:00:00+01:00", "2026-03-29T03:00:00+02:00"),
        ("02:15-02:45", "2026-03-28T12:00:00+01:00", "2026-03-30T02:15:00+02:00"),
        // Fall back: the hour from 02:00 happens twice; the window opens once.
        ("01:00-06:00", "2026-10-25T02:30:00+01:00", "2026-10-25T02:30:00+01:00"),
        ("01:00-06:00", "2026-10-25T05:59:00+01:00", "2026-10-25T05:59:00+01:00"),
        ("02:00-02:30", "2026-10-25T02:10:00+02:00", "2026-10-25T02:10:00+02:00"),
        ("02:00-02:30", "2026-10-25T02:10:00+01:00", "2026-10-26T02:00:00+01:00"),
        ("22:00-02:30", "2026-10-25T02:15:00+01:00", "2026-10-25T22:00:00+01:00"),
        ("02:30-03:30", "2026-10-25T02:40:00+01:00", "2026-10-25T02:40:00+01:00"),
    ])
    func findsTheFirstOpenMoment(window text: String, at instant: String, expected: String) throws {
        #expect(try window(text).firstOpenMoment(atOrAfter: moment(instant), clock: clock) == moment(expected))
    }
}
