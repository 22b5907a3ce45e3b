import Foundation
import Logging
import Testing
import TestSupport
@testable import SyncAgentKit

/// `pause`, `resume`, `stop` and `start` on feeds and single episodes, with no agent
/// (``OfflineControl``) and through a running agent's ``ControlResponder``.
extension SyncDriverFeedsTests {
    func targets(_ titles: [String], in manifest: Manifest) throws -> HoldTargets {
        try TitleMatcher.targets(titles, in: manifest, episodes: try HoldTargets.namedEpisodes(of: manifest, store: store))
    }

    func record(_ command: ControlRequest.Command, _ titles: [String], in manifest: Manifest) throws -> String {
        try OfflineControl.record(command, of: try targets(titles, in: manifest), all: titles.isEmpty, in: manifest, store: store)
    }

    func row(_ title: String, in manifest: Manifest) throws -> FileStatus? {
        try OfflineControl.status(of: manifest, store: store).first { $0.title == title }
    }

    /// A running agent's driver, and its responder, once the episode "ATP/Big" (1.5 MB at
    /// 200 kB/s) has started arriving.
    func agentMidEpisode() throws -> (SyncDriver, ControlResponder) {
        try serveSlowEpisodeFeed()
        nonisolated(unsafe) var received: Int64 = 0
        let driver = SyncDriver(store: store, mode: .onSchedule, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now }) { event, file in
            if case .progress(_, let bytes, _) = event, file.title == "ATP/Big" { received = bytes }
        }
        driver.use(try manifest())
        while received == 0 {
            if driver.planRequested { _ = try driver.plan(conditions: nil) }
            driver.step(until: .now + .milliseconds(100))
        }
        return (driver, ControlResponder(driver: driver, logger: Logger(label: "feed-commands-test") { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test func aPausedFeedIsNeitherCheckedNorDownloadedUntilResumed() throws {
        try publish([Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .all)
        #expect(try record(.pause, ["at"], in: manifest).hasPrefix("the agent is not running; marked paused 1 feed: ATP in the saved state"))
        #expect(try row("ATP", in: manifest)?.state == .paused)
        #expect(try runOnce(manifest).isEmpty)
        #expect(server.requests(for: "/feed.xml").isEmpty)

        #expect(try record(.resume, ["ATP"], in: manifest).contains("released 1 feed: ATP"))
        #expect(try runOnce(manifest) == ["ATP/Episode 2", "ATP/Episode 1"])
        #expect(try row("ATP", in: manifest)?.state == .upToDate)
    }

    @Test func stopAndStartActOnOneEpisodeAndStartFetchesASkippedOrFailedOne() throws {
        // Episode 7's enclosure is not served yet: a 404 fails it for good.
        try publish([Item(number: 7), Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .newest(2))
        #expect(try runOnce(manifest) == ["ATP/Episode 2"])
        #expect(try states() == ["Episode 7": .failed, "Episode 2": .done, "Episode 1": .skipped])

        #expect(try record(.stop, ["atp/episode 7"], in: manifest).contains("marked stopped 1 file: ATP/Episode 7"))
        #expect(try row("ATP/Episode 7", in: manifest)?.state == .stopped)
        try server.serve("media/ep7.mp3", Data(repeating: 7, count: 3_007))
        #expect(try runOnce(manifest).isEmpty)

        // `resume` lifts the hold but fetches nothing skipped or failed; `start` does.
        _ = try record(.resume, ["ATP/Episode 7", "ATP/Episode 1"], in: manifest)
        #expect(try runOnce(manifest).isEmpty)
        _ = try record(.start, ["ATP/Episode 7", "ATP/Episode 1"], in: manifest)
        #expect(try states() == ["Episode 7": .wanted, "Episode 2": .done, "Episode 1": .wanted])
        #expect(try runOnce(manifest) == ["ATP/Episode 7", "ATP/Episode 1"])
        #expect(episodeFiles == ["Episode 1.mp3", "Episode 2.mp3", "Episode 7.mp3"])
        #expect(try states() == ["Episode 7": .done, "Episode 2": .done, "Episode 1": .done])
    }

    @Test func aRunningAgentPausesAFeedMidEpisodeKeepingItsPartialAndResumesItWithARange() throws {
        let (driver, responder) = try agentMidEpisode()

        let paused = responder.answer(ControlRequest(.pause, titles: ["ATP"]))
        #expect(paused.ok && paused.message == "paused 1 feed: ATP (partial downloads are kept)")
        _ = try driver.plan(conditions: nil)
        #expect(driver.isIdle)
        #expect(try states() == ["Big": .wanted])
        let rows = try driver.status()
        #expect(rows.map(\.state) == [.paused, .paused])
        #expect((rows.last?.bytesReceived ?? 0) > 0)

        let resumed = responder.answer(ControlRequest(.resume, titles: ["ATP"]))
        #expect(resumed.ok && resumed.message == "resumed 1 feed: ATP")
        while driver.planRequested || !driver.isIdle {
            if driver.planRequested { _ = try driver.plan(conditions: nil) }
            driver.step(until: .now + .milliseconds(100))
        }
        driver.saveChanges()
        #expect(server.requests(for: "/slow/big.mp3", count: 2).last?.range.hasPrefix("bytes=") == true)
        #expect(FileManager.default.contents(atPath: folder.appending("files/ATP/Big.mp3")) == Data(repeating: 0x42, count: 1_500_000))
        #expect(try states() == ["Big": .done])
    }

    @Test func resetDeletesTheEpisodesSyncagentWroteForgetsTheFeedAndHoldsItStopped() throws {
        try publish([Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .newest(1))
        #expect(try runOnce(manifest) == ["ATP/Episode 2"])
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.appending("files/ATP/my notes.txt")))

        #expect(try OfflineControl.reset(manifest, store: store) == "reset: deleted 1 file and forgot the saved state; `syncagent start` downloads it again")
        #expect(episodeFiles == ["my notes.txt"])
        #expect(try store.episodes(ofFeed: folder.appending("files/ATP")).isEmpty)
        let feedRecord = try store.feedRecord(forFolder: folder.appending("files/ATP"))
        #expect(feedRecord?.hold == .stopped && feedRecord?.bodySHA256 == nil && feedRecord?.validators == Validators())
        #expect(try OfflineControl.status(of: manifest, store: store).map(\.state) == [.stopped])
        #expect(try runOnce(manifest).isEmpty)
        #expect(server.requests(for: "/feed.xml", count: 2).count == 1)

        // Started again, it is a new subscription: the newest `first` once more.
        _ = try record(.start, ["ATP"], in: manifest)
        #expect(try runOnce(manifest) == ["ATP/Episode 2"])
        #expect(try states() == ["Episode 2": .done, "Episode 1": .skipped])
    }

    @Test func aRunningAgentsResetCancelsTheEpisodeAndDeletesItsPartial() throws {
        let (driver, responder) = try agentMidEpisode()
        let partial = folder.appending("files/ATP/.Big.mp3.part")
        #expect(FileManager.default.fileExists(atPath: partial))

        let reset = responder.answer(ControlRequest(.reset))
        #expect(reset.ok && reset.message.hasPrefix("reset: deleted 0 files"))
        _ = try driver.plan(conditions: nil)
        #expect(driver.isIdle)
        #expect(!FileManager.default.fileExists(atPath: partial) && episodeFiles.isEmpty)
        #expect(try driver.status().map(\.state) == [.stopped])
    }

    @Test func aBatchNamesHeldFeedsAsLeftOutButNotAnEpisodeHeldOnItsOwn() throws {
        try publish([Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .newest(1))
        try runOnce(manifest)
        _ = try record(.start, ["ATP/Episode 1"], in: manifest)
        _ = try record(.pause, ["ATP/Episode 1"], in: manifest)
        let driver = SyncDriver(store: store, mode: .everyFileNow, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now })
        driver.use(manifest)
        _ = try driver.runOneBatch(stoppingOn: nil)
        #expect(driver.held.isEmpty)
        #expect(episodeFiles == ["Episode 2.mp3"])

        _ = try record(.pause, ["ATP"], in: manifest)
        _ = try driver.runOneBatch(stoppingOn: nil)
        #expect(driver.held == ["ATP"])
    }
}
