import Foundation
import Testing
@testable import SyncAgentKit

struct NotBeforeTextTests {
    /// 2026-12-01T07:00:00Z in seconds since 1970, worked out apart from the parser.
    static let decemberFirstSevenUTC: TimeInterval = 1_796_108_400

    @Test(arguments: [
        ("2026-12-01T08:00:00+01:00", 0), ("2026-12-01T07:00:00Z", 0), ("2026-12-01t07:00:00z", 0),
        ("2026-12-01 08:00:00+01:00", 0), ("2026-12-01T08:00+01:00", 0), ("2026-12-01T02:00:00-05:00", 0),
        ("2026-12-01T12:30:00+05:30", 0), ("2026-12-01T07:00:00.25Z", 0.25), ("2026-12-01T07:00:01.5+00:00", 1.5),
        ("2026-12-01T00:00:00+23:59", -111_540), ("2026-11-30T23:59:59-07:00", -1),
    ] as [(String, TimeInterval)])
    func readsMomentsWithTheirOffset(text: String, secondsAfterSevenUTC: TimeInterval) throws {
        let expected = Date(timeIntervalSince1970: Self.decemberFirstSevenUTC + secondsAfterSevenUTC)
        #expect(try NotBeforeText.parse(text) == .instant(expected))
    }

    @Test func keepsADayAloneForTheSchedulerToPlaceInLocalTime() throws {
        #expect(try NotBeforeText.parse("2026-12-01") == .day(#require(CalendarDay(year: 2026, month: 12, day: 1))))
        #expect(try NotBeforeText.parse("2024-02-29") == .day(#require(CalendarDay(year: 2024, month: 2, day: 29))))
    }

    @Test(arguments: [
        "tomorrow", "2026-12-1", "2026/12/01", "26-12-01", "2026-12-01T", "2026-12-01T8:00Z", "2026-12-01T08Z",
        "2026-12-01T08:00:00+01", "2026-12-01T08:00:00+0100", "2026-12-01T08:00:00.Z", "2026-12-01T08:00:00.1234567891Z",
        "2026-12-01T08:00:00 Z", "2026-12-01T08:00:00Z ", "2026-12-01T08:00:00CET", "12/01/2026",
    ])
    func refusesWhatIsNotAMoment(text: String) {
        #expect(throws: ValueProblem("expected a moment like \"2026-12-01T08:00:00+01:00\" or a day like \"2026-12-01\" for `not_before`, found \(TextQuoting.quoted(text))")) {
            try NotBeforeText.parse(text)
        }
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-04-31T08:00:00Z", "0000-01-01"])
    func refusesDaysThatDoNotExist(text: String) {
        #expect(throws: ValueProblem("`not_before` \(TextQuoting.quoted(text)) names a day that does not exist")) {
            try NotBeforeText.parse(text)
        }
    }

    @Test(arguments: ["2026-12-01T24:00:00Z", "2026-12-01T08:60:00Z", "2026-12-01T08:00:60Z", "2026-12-01T25:00"])
    func refusesTimesThatDoNotExist(text: String) {
        #expect(throws: ValueProblem("`not_before` \(TextQuoting.quoted(text)) has a time of day that does not exist; hours run from 00 to 23, minutes and seconds from 00 to 59")) {
            try NotBeforeText.parse(text)
        }
    }

    @Test(arguments: ["2026-12-01T08:00:00", "2026-12-01T08:00", "2026-12-01 08:00:00.5"])
    func refusesATimeWithoutAZone(text: String) {
        #expect(throws: ValueProblem("`not_before` \(TextQuoting.quoted(text)) has no time zone; add an offset such as \"+01:00\" (or \"Z\" for UTC), or write the day alone, such as \"2026-12-01\", to mean local midnight")) {
            try NotBeforeText.parse(text)
        }
    }

    @Test(arguments: ["2026-12-01T08:00:00+24:00", "2026-12-01T08:00:00-01:60"])
    func refusesOffsetsThatDoNotExist(text: String) {
        #expect(throws: ValueProblem("`not_before` \(TextQuoting.quoted(text)) has an offset that does not exist; offsets run from -23:59 to +23:59")) {
            try NotBeforeText.parse(text)
        }
    }
}
