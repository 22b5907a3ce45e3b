import Foundation
import Testing
@testable import SyncAgentKit

struct SchedulerTests {
    static let now = moment("2026-06-15T12:00:00Z")
    static let allGood = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false)
    static let daily = Manifest.Schedule()
    static let nightly = Manifest.Schedule(window: Manifest.DailyWindow(start: 60, end: 360))

    let utc = Scheduler(timeZone: TimeZone(identifier: "UTC")!)
    let inBerlin = Scheduler(timeZone: berlin)

    private func file(
        _ schedule: Manifest.Schedule = daily, exists: Bool = true, lastCheck: ScheduledFile.LastCheck? = nil, byUser: Bool = false
    ) -> ScheduledFile {
        ScheduledFile(path: "/files/a.pdf", schedule: schedule, existsOnDisk: exists, lastCheck: lastCheck, requestedByUser: byUser)
    }

    /// Why the one file waits (nil: it starts), checking that the plan agrees with itself.
    private func reason(
        _ file: ScheduledFile, in scheduler: Scheduler? = nil, at now: Date = now, conditions: Conditions = allGood
    ) -> WaitReason? {
        let plan = (scheduler ?? utc).plan([file], at: now, conditions: conditions)
        let reason = plan.waiting.first?.reason
        #expect(plan.start == (reason == nil ? [file.path] : []))
        #expect(plan.nextWake == reason?.until)
        return reason
    }

    private func ago(_ duration: Duration, from date: Date = now) -> Date {
        date.adding(.zero - duration)
    }

    // MARK: When a file is due

    @Test func startsAFileThatIsMissingOrWasNeverChecked() {
        #expect(reason(file(exists: false)) == nil)
        #expect(reason(file(exists: true, lastCheck: nil)) == nil)
    }

    @Test func waitsEveryAfterTheLastCheck() {
        let checked = ago(.seconds(2 * 3600))
        #expect(reason(file(lastCheck: .succeeded(checked))) == .notDue(until: moment("2026-06-16T10:00:00Z")))
        let sixHourly = Manifest.Schedule(every: .seconds(6 * 3600))
        #expect(reason(file(sixHourly, lastCheck: .succeeded(checked))) == .notDue(until: moment("2026-06-15T16:00:00Z")))
    }

    @Test func isDueTheMomentEveryHasPassed() {
        #expect(reason(file(lastCheck: .succeeded(ago(.seconds(86_400))))) == nil)
        let almost = ago(.seconds(86_400) - .milliseconds(1))
        #expect(reason(file(lastCheck: .succeeded(almost))) == .notDue(until: Self.now.addingTimeInterval(0.001)))
    }

    @Test func fetchesAgainAFileDeletedSinceItsLastCheck() {
        #expect(reason(file(exists: false, lastCheck: .succeeded(ago(.seconds(60))))) == nil)
    }

    @Test func retriesAPermanentFailureOnlyAtItsNextCheck() {
        let failed = ago(.seconds(3600))
        let sixHourly = Manifest.Schedule(every: .seconds(6 * 3600))
        #expect(reason(file(sixHourly, exists: false, lastCheck: .failedPermanently(failed))) == .notDue(until: moment("2026-06-15T17:00:00Z")))
        #expect(reason(file(sixHourly, exists: false, lastCheck: .failedPermanently(failed)), at: moment("2026-06-15T17:00:00Z")) == nil)
    }

    @Test func retriesATransientFailureWhenItsBackoffHasElapsed() {
        let retryAt = moment("2026-06-15T12:00:30Z")
        let ownBackoff = ScheduledFile.LastCheck.failedTransiently(ago(.seconds(30)), retry: PendingRetry(date: retryAt, requestedByServer: false))
        #expect(reason(file(lastCheck: ownBackoff)) == .retry(at: retryAt))
        #expect(reason(file(lastCheck: ownBackoff), at: retryAt) == nil)
        let serverAsked = ScheduledFile.LastCheck.failedTransiently(ago(.seconds(30)), retry: PendingRetry(date: retryAt, requestedByServer: true))
        #expect(reason(file(lastCheck: serverAsked)) == .serverAskedToWait(until: retryAt))
        #expect(reason(file(lastCheck: serverAsked), at: retryAt) == nil)
    }

    @Test func retriesATransientFailureWithNoPendingRetryAtOnce() {
        #expect(reason(file(lastCheck: .failedTransiently(ago(.seconds(60)), retry: nil))) == nil)
    }

    @Test func countsEveryFromNowWhenTheLastCheckIsInTheFuture() {
        // The clock was set back a year after the last check.
        let checked = moment("2027-06-15T12:00:00Z")
        #expect(reason(file(lastCheck: .succeeded(checked))) == .notDue(until: moment("2026-06-16T12:00:00Z")))
    }

    // MARK: not_before

    @Test func holdsWorkBackUntilNotBefore() {
        let december = moment("2026-12-01T08:00:00+01:00")
        let schedule = Manifest.Schedule(notBefore: .instant(december))
        #expect(reason(file(schedule, exists: false)) == .notBefore(december))
        #expect(reason(file(schedule, exists: false), at: december) == nil)
        #expect(reason(file(schedule, exists: false), at: december.addingTimeInterval(-0.001)) == .notBefore(december))
    }

    @Test func placesADayAloneAtLocalMidnight() {
        let schedule = Manifest.Schedule(notBefore: .day(calendarDay(2026, 12, 1)))
        #expect(reason(file(schedule, exists: false), in: inBerlin) == .notBefore(moment("2026-12-01T00:00:00+01:00")))
        #expect(reason(file(schedule, exists: false), in: utc) == .notBefore(moment("2026-12-01T00:00:00Z")))
        let santiago = Scheduler(timeZone: TimeZone(identifier: "America/Santiago")!)
        let skippedMidnight = Manifest.Schedule(notBefore: .day(calendarDay(2026, 9, 6)))
        #expect(reason(file(skippedMidnight, exists: false), in: santiago) == .notBefore(moment("2026-09-06T01:00:00-03:00")))
    }

    @Test func namesWhicheverOfNotBeforeAndTheNextCheckComesLater() {
        let checked = ago(.seconds(3600))
        let soon = Manifest.Schedule(notBefore: .instant(moment("2026-06-15T18:00:00Z")))
        #expect(reason(file(soon, lastCheck: .succeeded(checked))) == .notDue(until: moment("2026-06-16T11:00:00Z")))
        let later = Manifest.Schedule(notBefore: .instant(moment("2026-06-20T00:00:00Z")))
        #expect(reason(file(later, lastCheck: .succeeded(checked))) == .notBefore(moment("2026-06-20T00:00:00Z")))
    }

    // MARK: window

    @Test(arguments: [
        ("2026-06-15T00:30:00+02:00", "2026-06-15T01:00:00+02:00"),
        ("2026-06-15T00:59:59+02:00", "2026-06-15T01:00:00+02:00"),
        ("2026-06-15T06:00:00+02:00", "2026-06-16T01:00:00+02:00"),
        ("2026-06-15T14:00:00+02:00", "2026-06-16T01:00:00+02:00"),
    ])
    func waitsForTheWindowToOpen(at now: String, opens: String) {
        #expect(reason(file(Self.nightly, exists: false), in: inBerlin, at: moment(now)) == .outsideWindow(opensAt: moment(opens)))
    }

    @Test(arguments: ["2026-06-15T01:00:00+02:00", "2026-06-15T03:00:00+02:00", "2026-06-15T05:59:59+02:00"])
    func startsInsideTheWindow(at now: String) {
        #expect(reason(file(Self.nightly, exists: false), in: inBerlin, at: moment(now)) == nil)
    }

    @Test func startsInAWindowThatCrossesMidnightOnEitherSide() {
        let overnight = Manifest.Schedule(window: Manifest.DailyWindow(start: 22 * 60, end: 6 * 60))
        #expect(reason(file(overnight, exists: false), in: inBerlin, at: moment("2026-06-15T23:00:00+02:00")) == nil)
        #expect(reason(file(overnight, exists: false), in: inBerlin, at: moment("2026-06-16T05:00:00+02:00")) == nil)
        #expect(reason(file(overnight, exists: false), in: inBerlin, at: moment("2026-06-16T06:00:00+02:00")) == .outsideWindow(opensAt: moment("2026-06-16T22:00:00+02:00")))
    }

    @Test func waitsForTheFirstWindowAfterTheNextCheck() {
        // Checked at 03:00 yesterday: due at 03:00 today, inside the window.
        let checkedInWindow = ScheduledFile.LastCheck.succeeded(moment("2026-06-14T03:00:00+02:00"))
        #expect(reason(file(Self.nightly, lastCheck: checkedInWindow), in: inBerlin, at: moment("2026-06-15T00:00:00+02:00")) == .notDue(until: moment("2026-06-15T03:00:00+02:00")))
        // Checked at 10:00 yesterday (by hand): due at 10:00 today, so it waits for tonight's window.
        let checkedByDay = ScheduledFile.LastCheck.succeeded(moment("2026-06-14T10:00:00+02:00"))
        #expect(reason(file(Self.nightly, lastCheck: checkedByDay), in: inBerlin, at: moment("2026-06-15T00:00:00+02:00")) == .outsideWindow(opensAt: moment("2026-06-16T01:00:00+02:00")))
    }

    @Test func waitsForTheWindowAcrossTheSpringClockChange() {
        // 02:30 does not happen on 2026-03-29: the window opens when the clocks jump to 03:00.
        let schedule = Manifest.Schedule(window: Manifest.DailyWindow(start: 150, end: 240))
        let opens = moment("2026-03-29T03:00:00+02:00")
        #expect(reason(file(schedule, exists: false), in: inBerlin, at: moment("2026-03-28T12:00:00+01:00")) == .outsideWindow(opensAt: opens))
        #expect(reason(file(schedule, exists: false), in: inBerlin, at: opens) == nil)
        #expect(reason(file(schedule, exists: false), in: inBerlin, at: moment("2026-03-29T04:00:00+02:00")) == .outsideWindow(opensAt: moment("2026-03-30T02:30:00+02:00")))
    }

    @Test func waitsForTheWindowAcrossTheAutumnClockChange() {
        let schedule = Manifest.Schedule(window: Manifest.DailyWindow(start: 120, end: 150))
        let firstPass = moment("2026-10-25T02:10:00+02:00")
        let secondPass = moment("2026-10-25T02:10:00+01:00")
        #expect(reason(file(schedule, exists: false), in: inBerlin, at: firstPass) == nil)
        // The clock shows 02:10 again an hour later, but the window has closed for the day.
        #expect(reason(file(schedule, exists: false), in: inBerlin, at: secondPass) == .outsideWindow(opensAt: moment("2026-10-26T02:00:00+01:00")))
        let nightly = reason(file(Self.nightly, exists: false), in: inBerlin, at: moment("2026-10-25T05:30:00+01:00"))
        #expect(nightly == nil, "01:00-06:00 lasts six hours that night and is still open")
    }

    // MARK: conditions

    @Test func runsDiscretionaryWorkOnlyOnMainsPowerAndAnUnmeteredNetwork() {
        let discretionary = file(Manifest.Schedule(discretionary: true), exists: false)
        #expect(reason(discretionary, conditions: Self.allGood) == nil)
        #expect(reason(discretionary, conditions: .init(onMainsPower: false, networkAvailable: true, networkMetered: false)) == .waitingForMainsPower)
        #expect(reason(discretionary, conditions: .init(onMainsPower: true, networkAvailable: true, networkMetered: true)) == .waitingForUnmeteredNetwork)
        #expect(reason(discretionary, conditions: .init(onMainsPower: true, networkAvailable: false, networkMetered: false)) == .waitingForNetwork)
        #expect(reason(discretionary, conditions: .init(onMainsPower: false, networkAvailable: false, networkMetered: true)) == .waitingForNetwork)
        #expect(reason(discretionary, conditions: .init(onMainsPower: false, networkAvailable: true, networkMetered: true)) == .waitingForMainsPower)
    }

    @Test func runsOtherScheduledWorkOnAnyNetworkButNotWithoutOne() {
        #expect(reason(file(exists: false), conditions: .init(onMainsPower: false, networkAvailable: true, networkMetered: true)) == nil)
        #expect(reason(file(exists: false), conditions: .init(onMainsPower: true, networkAvailable: false, networkMetered: false)) == .waitingForNetwork)
    }

    @Test func aCaptivePortalHoldsScheduledWorkUntilLoginButNotWhatTheUserAskedFor() {
        let portal = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false, networkNeedsLogin: true)
        #expect(reason(file(exists: false), conditions: portal) == .waitingForNetworkLogin)
        #expect(reason(file(Manifest.Schedule(discretionary: true), exists: false), conditions: portal) == .waitingForNetworkLogin)
        #expect(WaitReason.waitingForNetworkLogin.until == nil)
    }

    @Test func namesATimeReasonBeforeAMissingCondition() {
        let offline = Conditions(onMainsPower: false, networkAvailable: false, networkMetered: false)
        let checked = ago(.seconds(3600))
        #expect(reason(file(Manifest.Schedule(discretionary: true), lastCheck: .succeeded(checked)), conditions: offline) == .notDue(until: moment("2026-06-16T11:00:00Z")))
    }

    // MARK: explicit requests

    @Test func startsWhatTheUserAsksForAtOnce() {
        let offline = Conditions(onMainsPower: false, networkAvailable: false, networkMetered: true)
        let everything = Manifest.Schedule(
            every: .seconds(7 * 86_400), notBefore: .instant(moment("2027-01-01T00:00:00Z")),
            window: Manifest.DailyWindow(start: 60, end: 120), discretionary: true
        )
        #expect(reason(file(everything, lastCheck: .succeeded(ago(.seconds(60))), byUser: true), conditions: offline) == nil)
        #expect(reason(file(everything, exists: false, lastCheck: .failedPermanently(ago(.seconds(60))), byUser: true)) == nil)
        let ownBackoff = PendingRetry(date: moment("2026-06-15T12:05:00Z"), requestedByServer: false)
        #expect(reason(file(lastCheck: .failedTransiently(ago(.seconds(60)), retry: ownBackoff), byUser: true)) == nil)
    }

    @Test func holdsAUserRequestBackOnlyForTheServersRetryAfter() {
        let retryAt = moment("2026-06-15T13:00:00Z")
        let serverAsked = ScheduledFile.LastCheck.failedTransiently(ago(.seconds(60)), retry: PendingRetry(date: retryAt, requestedByServer: true))
        #expect(reason(file(lastCheck: serverAsked, byUser: true)) == .serverAskedToWait(until: retryAt))
        #expect(reason(file(lastCheck: serverAsked, byUser: true), at: retryAt) == nil)
    }

    // MARK: the plan

    @Test func plansEveryFileInOrderAndWakesForTheEarliest() {
        let files = [
            ScheduledFile(path: "/f/missing", schedule: Self.daily, existsOnDisk: false, lastCheck: nil),
            ScheduledFile(path: "/f/recent", schedule: Self.daily, existsOnDisk: true, lastCheck: .succeeded(ago(.seconds(3600)))),
            ScheduledFile(path: "/f/thrifty", schedule: Manifest.Schedule(discretionary: true), existsOnDisk: false, lastCheck: nil),
            ScheduledFile(path: "/f/retry", schedule: Self.daily, existsOnDisk: true, lastCheck: .failedTransiently(ago(.seconds(5)), retry: PendingRetry(date: moment("2026-06-15T12:01:00Z"), requestedByServer: false))),
            ScheduledFile(path: "/f/old", schedule: Self.daily, existsOnDisk: true, lastCheck: .succeeded(ago(.seconds(2 * 86_400)))),
        ]
        let onBattery = Conditions(onMainsPower: false, networkAvailable: true, networkMetered: false)
        let plan = utc.plan(files, at: Self.now, conditions: onBattery)
        #expect(plan == SchedulePlan(
            start: ["/f/missing", "/f/old"],
            waiting: [
                .init(path: "/f/recent", reason: .notDue(until: moment("2026-06-16T11:00:00Z"))),
                .init(path: "/f/thrifty", reason: .waitingForMainsPower),
                .init(path: "/f/retry", reason: .retry(at: moment("2026-06-15T12:01:00Z"))),
            ],
            nextWake: moment("2026-06-15T12:01:00Z")
        ))
    }

    @Test func needsNoWakeWhenNothingWaitsForTime() {
        let onBattery = Conditions(onMainsPower: false, networkAvailable: true, networkMetered: false)
        #expect(utc.plan([], at: Self.now, conditions: Self.allGood) == SchedulePlan())
        #expect(utc.plan([file(Manifest.Schedule(discretionary: true), exists: false)], at: Self.now, conditions: onBattery).nextWake == nil)
        #expect(utc.plan([file(exists: false)], at: Self.now, conditions: Self.allGood).nextWake == nil)
    }
}
