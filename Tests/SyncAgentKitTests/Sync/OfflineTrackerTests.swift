import Foundation
import Testing
@testable import SyncAgentKit

/// When the agent counts as offline, and when it tries again — with fixed dates, no network.
struct OfflineTrackerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let online = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false)

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func theMonitorsWordComesFirst() {
        var tracker = OfflineTracker()
        let planned1 = tracker.planningConditions(online, at: start)
        #expect(planned1.conditions == online)
        #expect(tracker.wait == nil)
        var none = online
        none.networkAvailable = false
        _ = tracker.planningConditions(none, at: start)
        #expect(tracker.wait == .noNetwork)
        var portal = online
        portal.networkNeedsLogin = true
        let planned2 = tracker.planningConditions(portal, at: start)
        #expect(planned2.conditions == portal)
        #expect(tracker.wait == .networkLogin)
        _ = tracker.planningConditions(online, at: start)
        #expect(tracker.wait == nil)
    }

    @Test func namesThatDoNotResolveWhileNoServerAnswersAreOfflineUntilAServerAnswers() {
        var tracker = OfflineTracker()
        let countsAsOffline1 = tracker.nameDidNotResolve(host: "example.org", under: online, at: start)
        #expect(countsAsOffline1)
        #expect(tracker.wait == .namesDoNotResolve(host: "example.org"))
        let (planning, retryAt) = tracker.planningConditions(online, at: at(1))
        #expect(!planning.networkAvailable)
        #expect(retryAt == at(OfflineTracker.firstRetry))
        tracker.serverAnswered(at: at(2))
        #expect(tracker.wait == nil)
        let planned3 = tracker.planningConditions(online, at: at(3))
        #expect(planned3.conditions == online)
    }

    @Test func aNameThatFailsWhileOtherServersAnswerIsTheFilesOwnFailure() {
        var tracker = OfflineTracker()
        tracker.serverAnswered(at: start)
        let countsAsOffline2 = tracker.nameDidNotResolve(host: "typo.example", under: online, at: at(10))
        #expect(!countsAsOffline2)
        #expect(tracker.wait == nil)
        let countsAsOffline3 = tracker.nameDidNotResolve(host: "typo.example", under: online, at: at(10 + OfflineTracker.recentAnswer))
        #expect(countsAsOffline3)
    }

    @Test func itTriesAgainAtOnceWhenTheNetworkChangesAndOtherwiseWaitsLongerEachTime() {
        var tracker = OfflineTracker()
        _ = tracker.nameDidNotResolve(host: "example.org", under: online, at: start)
        var changed = online
        changed.networkChanges = 1
        // A network change: try now.
        let planned4 = tracker.planningConditions(changed, at: at(5))
        #expect(planned4.conditions == changed)
        // The try failed: the next waits twice as long, and rounds meanwhile keep waiting.
        let countsAsOffline4 = tracker.nameDidNotResolve(host: "example.org", under: changed, at: at(6))
        #expect(countsAsOffline4)
        let countsAsOffline5 = tracker.nameDidNotResolve(host: "example.org", under: changed, at: at(6))
        #expect(countsAsOffline5)
        let (planning, retryAt) = tracker.planningConditions(changed, at: at(7))
        #expect(!planning.networkAvailable)
        #expect(retryAt == at(6 + 2 * OfflineTracker.firstRetry))
        // At that time a round tries again, without a change.
        let planned5 = tracker.planningConditions(changed, at: at(6 + 2 * OfflineTracker.firstRetry))
        #expect(planned5.conditions == changed)
        let planned6 = tracker.planningConditions(changed, at: at(7 + 2 * OfflineTracker.firstRetry))
        #expect(!planned6.conditions.networkAvailable)
    }

    @Test func theWaitBetweenTriesStopsGrowingAtTheLongest() {
        var tracker = OfflineTracker()
        var now = start
        _ = tracker.nameDidNotResolve(host: "example.org", under: online, at: now)
        var retryAt = now
        for _ in 0..<12 {
            now = retryAt
            _ = tracker.planningConditions(online, at: now)
            _ = tracker.nameDidNotResolve(host: "example.org", under: online, at: now)
            retryAt = tracker.planningConditions(online, at: now).retryAt ?? now
        }
        #expect(retryAt.timeIntervalSince(now) == OfflineTracker.longestRetry)
    }
}
