import Foundation
import Testing
@testable import SyncAgentKit

/// A schedule is a value: its `not_before` and window live in a shared box, and a change to
/// one copy never shows in another.
struct ScheduleTests {
    static let window = Manifest.DailyWindow(start: 60, end: 360)
    static let day = Manifest.NotBefore.day(CalendarDay(year: 2026, month: 12, day: 1)!)

    @Test func aChangeToOneCopyNeverShowsInAnother() {
        var changed = Manifest.Schedule(every: .seconds(3_600), notBefore: Self.day, window: Self.window)
        let copy = changed
        changed.window = nil
        #expect(copy.window == Self.window && copy.notBefore == Self.day)
        #expect(changed.window == nil && changed.notBefore == Self.day)
        changed.notBefore = nil
        #expect(changed == Manifest.Schedule(every: .seconds(3_600)))
        #expect(copy != changed)
    }

    @Test func schedulesWithTheSameFieldsAreEqualHoweverTheyWereMade() {
        var made = Manifest.Schedule()
        made.window = Self.window
        #expect(made == Manifest.Schedule(window: Self.window))
        #expect(made != Manifest.Schedule(window: Self.window, discretionary: true))
        made.window = nil
        #expect(made == Manifest.Schedule())
    }
}
