import Foundation
import Testing
@testable import SyncAgentKit

struct WallClockTests {
    let clock = WallClock(timeZone: berlin)

    @Test func findsOrdinaryLocalTimes() {
        #expect(clock.firstInstant(reaching: localTime(2026, 6, 15, 12, 0)) == moment("2026-06-15T12:00:00+02:00"))
        #expect(clock.firstInstant(reaching: localTime(2026, 1, 15, 12, 0)) == moment("2026-01-15T12:00:00+01:00"))
        #expect(WallClock(timeZone: TimeZone(identifier: "Asia/Kolkata")!).firstInstant(reaching: localTime(2026, 3, 29, 2, 30)) == moment("2026-03-29T02:30:00+05:30"))
    }

    @Test(arguments: [
        (localTime(2026, 3, 29, 1, 59, 59), "2026-03-29T01:59:59+01:00"),
        (localTime(2026, 3, 29, 2, 0), "2026-03-29T03:00:00+02:00"),
        (localTime(2026, 3, 29, 2, 30), "2026-03-29T03:00:00+02:00"),
        (localTime(2026, 3, 29, 2, 59, 59), "2026-03-29T03:00:00+02:00"),
        (localTime(2026, 3, 29, 3, 0), "2026-03-29T03:00:00+02:00"),
        (localTime(2026, 3, 29, 3, 0, 1), "2026-03-29T03:00:01+02:00"),
    ])
    func placesASkippedTimeWhereTheClockJumpsPastIt(local: Int64, expected: String) {
        #expect(clock.firstInstant(reaching: local) == moment(expected))
    }

    @Test(arguments: [
        (localTime(2026, 10, 25, 1, 59), "2026-10-25T01:59:00+02:00"),
        (localTime(2026, 10, 25, 2, 0), "2026-10-25T02:00:00+02:00"),
        (localTime(2026, 10, 25, 2, 30), "2026-10-25T02:30:00+02:00"),
        (localTime(2026, 10, 25, 2, 59, 59), "2026-10-25T02:59:59+02:00"),
        (localTime(2026, 10, 25, 3, 0), "2026-10-25T03:00:00+01:00"),
    ])
    func placesARepeatedTimeAtItsFirstOccurrence(local: Int64, expected: String) {
        #expect(clock.firstInstant(reaching: local) == moment(expected))
    }

    @Test func placesAMidnightTheClocksSkip() {
        // Chile moves its clocks forward at midnight: 2026-09-06 begins at 01:00.
        let santiago = WallClock(timeZone: TimeZone(identifier: "America/Santiago")!)
        #expect(santiago.firstInstant(reaching: localTime(2026, 9, 6, 0, 0)) == moment("2026-09-06T01:00:00-03:00"))
    }

    @Test func readsTheLocalClockAndDay() {
        #expect(clock.localTime(of: moment("2026-10-25T02:30:00+02:00")) == Double(localTime(2026, 10, 25, 2, 30)))
        #expect(clock.localTime(of: moment("2026-10-25T02:30:00+01:00")) == Double(localTime(2026, 10, 25, 2, 30)))
        #expect(clock.localDay(of: moment("2026-03-29T00:30:00+01:00")) == Int64(calendarDay(2026, 3, 29).daysSinceEpoch))
        #expect(clock.localDay(of: moment("2026-03-28T23:59:59+01:00")) == Int64(calendarDay(2026, 3, 28).daysSinceEpoch))
        #expect(clock.localDay(of: moment("1969-12-31T23:00:00+01:00")) == -1)
    }
}
