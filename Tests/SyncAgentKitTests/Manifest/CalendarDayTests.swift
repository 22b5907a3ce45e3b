import Testing
@testable import SyncAgentKit

struct CalendarDayTests {
    @Test(arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 3, 1, 11_017), (2026, 12, 1, 20_788),
        (2024, 2, 29, 19_782), (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896),
    ])
    func countsDaysSinceTheEpoch(year: Int, month: Int, day: Int, days: Int) throws {
        #expect(try #require(CalendarDay(year: year, month: month, day: day)).daysSinceEpoch == days)
    }

    @Test(arguments: [(2026, 2, 29), (2100, 2, 29), (2026, 4, 31), (2026, 13, 1), (2026, 0, 1), (2026, 1, 0), (0, 1, 1), (10_000, 1, 1)])
    func refusesDaysTheCalendarDoesNotHave(year: Int, month: Int, day: Int) {
        #expect(CalendarDay(year: year, month: month, day: day) == nil)
    }

    @Test func acceptsLeapDaysOfLeapYears() {
        #expect(CalendarDay(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)
    }

    @Test func readsAsISO8601AndOrdersByDate() throws {
        let early = try #require(CalendarDay(year: 987, month: 6, day: 5))
        let late = try #require(CalendarDay(year: 2026, month: 1, day: 2))
        #expect(early.description == "0987-06-05")
        #expect(late.description == "2026-01-02")
        #expect(early < late)
    }
}
