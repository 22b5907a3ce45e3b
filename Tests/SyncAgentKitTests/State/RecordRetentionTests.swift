import Foundation
import Testing
@testable import SyncAgentKit

/// The retention policy alone: which records no manifest entry owns go at which times, and
/// when a prune is due. No database, no disk, a fixed clock.
struct RecordRetentionTests {
    let policy = RecordRetention.standard
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 86_400

    func record(_ key: String, daysAgo: Double?, held: Bool = false) -> RecordRetention.Unowned {
        .init(key: key, held: held, lastTouched: daysAgo.map { now.addingTimeInterval(-$0 * day) })
    }

    @Test func theStandardPolicyKeepsNinetyDaysAndLooksOnceADay() {
        #expect(policy.period == .seconds(90 * 86_400))
        #expect(policy.interval == .seconds(86_400))
    }

    @Test func aRecordGoesOnceUntouchedForTheWholePeriodAndNotASecondBefore() {
        let files = [
            record("/d/young.pdf", daysAgo: 1),
            record("/d/almost.pdf", daysAgo: 90 - 1 / day),
            record("/d/exactly.pdf", daysAgo: 90),
            record("/d/old.pdf", daysAgo: 400),
        ]
        let verdict = policy.verdict(files: files, feeds: [], liveFeeds: [], now: now)
        #expect(verdict == .init(files: ["/d/exactly.pdf", "/d/old.pdf"]))
    }

    @Test func aRecordNeverTouchedHoldsNothingAndGoesAtOnce() {
        let verdict = policy.verdict(files: [record("/d/never.pdf", daysAgo: nil)], feeds: [record("/d/Feed", daysAgo: nil)],
                                     liveFeeds: [], now: now)
        #expect(verdict == .init(files: ["/d/never.pdf"], feeds: ["/d/Feed"]))
    }

    @Test func aHeldRecordStaysWhateverItsAge() {
        let verdict = policy.verdict(
            files: [record("/d/stopped.pdf", daysAgo: 1_000, held: true), record("/d/never-started.pdf", daysAgo: nil, held: true)],
            feeds: [record("/d/Paused", daysAgo: 1_000, held: true)], liveFeeds: [], now: now
        )
        #expect(verdict == .init())
    }

    @Test func aLiveFeedKeepsEveryRecordInItsFolderHowEverOld() {
        let files = [record("/d/ATP/2020-01-01 Episode 1.mp3", daysAgo: 2_000), record("/d/ATP/sub/x.mp3", daysAgo: 2_000)]
        let verdict = policy.verdict(files: files, feeds: [], liveFeeds: ["/d/ATP"], now: now)
        #expect(verdict == .init())
    }

    @Test func aRetainedFeedKeepsItsFilesAndAnExpiredOneTakesThemAlongHeldOrNot() {
        let files = [
            record("/d/Kept/old episode.mp3", daysAgo: 500),
            record("/d/Gone/young episode.mp3", daysAgo: 1),
            record("/d/Gone/held episode.mp3", daysAgo: 1, held: true),
            // A folder whose name starts like a feed's is not inside it.
            record("/d/Gone2/file.pdf", daysAgo: 1),
        ]
        let feeds = [record("/d/Kept", daysAgo: 10), record("/d/Gone", daysAgo: 91)]
        let verdict = policy.verdict(files: files, feeds: feeds, liveFeeds: [], now: now)
        #expect(verdict == .init(files: ["/d/Gone/young episode.mp3", "/d/Gone/held episode.mp3"], feeds: ["/d/Gone"]))
    }

    @Test func theNearestFeedFolderDecides() {
        // A feed kept inside a folder of an expired one (or the other way round): the
        // innermost folder owns the file.
        let files = [record("/d/Outer/Inner/e.mp3", daysAgo: 1), record("/d/Outer/e.mp3", daysAgo: 1)]
        let feeds = [record("/d/Outer", daysAgo: 200)]
        let verdict = policy.verdict(files: files, feeds: feeds, liveFeeds: ["/d/Outer/Inner"], now: now)
        #expect(verdict == .init(files: ["/d/Outer/e.mp3"], feeds: ["/d/Outer"]))
    }

    @Test func aStateNeverPrunedIsNotDueItsCallerNotesItsFirstDay() {
        #expect(!policy.isDue(lastRun: nil, now: now))
    }

    @Test func aPruneIsDueOnceADay() {
        #expect(!policy.isDue(lastRun: now, now: now))
        #expect(!policy.isDue(lastRun: now.addingTimeInterval(-day + 1), now: now))
        #expect(policy.isDue(lastRun: now.addingTimeInterval(-day), now: now))
        #expect(policy.isDue(lastRun: now.addingTimeInterval(-30 * day), now: now))
    }

    @Test func aLastRunInTheFutureDoesNotPutTheNextOff() {
        // The clock was set back after a prune: waiting until the old date could be years.
        #expect(policy.isDue(lastRun: now.addingTimeInterval(3_600), now: now))
    }
}
