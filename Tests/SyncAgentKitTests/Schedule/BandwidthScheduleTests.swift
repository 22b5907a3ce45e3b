import Foundation
import Testing
@testable import SyncAgentKit

/// Which cap holds when: the first open window wins, else `bandwidth`; with a fixed clock.
struct BandwidthScheduleTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!

    func at(_ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: 24, hour: hour, minute: minute))!
    }

    let limit = Manifest.BandwidthLimit(bytesPerSecond: 2_000_000, windows: [
        .init(window: Manifest.DailyWindow(start: 8 * 60, end: 18 * 60), bytesPerSecond: 500_000),
        .init(window: Manifest.DailyWindow(start: 7 * 60, end: 20 * 60), bytesPerSecond: 1_000_000),
    ])

    @Test func theFirstOpenWindowWinsUntilItCloses() {
        let schedule = BandwidthSchedule(limit: limit, timeZone: zone)
        #expect(schedule.cap(at: at(12)) == .init(bytesPerSecond: 500_000, until: at(18)))
        #expect(schedule.description(at: at(12)) == "limited to 500 KB/s until 18:00")
        // Only the second window is open: it holds until the first opens.
        #expect(schedule.cap(at: at(7, 30)) == .init(bytesPerSecond: 1_000_000, until: at(8)))
        #expect(schedule.cap(at: at(19)) == .init(bytesPerSecond: 1_000_000, until: at(20)))
        // Outside every window: `bandwidth`, until the next window opens.
        #expect(schedule.cap(at: at(21)) == .init(bytesPerSecond: 2_000_000, until: at(7).addingTimeInterval(86_400)))
    }

    @Test func withoutWindowsTheCapHoldsForEverOrThereIsNone() {
        #expect(BandwidthSchedule(limit: .init(bytesPerSecond: 2_000_000), timeZone: zone).description(at: at(12)) == "limited to 2.0 MB/s")
        #expect(BandwidthSchedule(limit: .init(), timeZone: zone).description(at: at(12)) == nil)
        let onlyWindow = Manifest.BandwidthLimit(windows: [.init(window: Manifest.DailyWindow(start: 8 * 60, end: 18 * 60), bytesPerSecond: 500_000)])
        #expect(BandwidthSchedule(limit: onlyWindow, timeZone: zone).cap(at: at(19)) == .init(bytesPerSecond: nil, until: at(8).addingTimeInterval(86_400)))
    }
}
