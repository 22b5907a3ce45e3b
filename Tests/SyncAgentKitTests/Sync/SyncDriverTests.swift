import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// The one batch driver against a real nginx: what each mode starts, what a batch reports,
/// and how an interrupted batch ends. Time is a variable the test moves.
@Suite(.serialized) final class SyncDriverTests {
    let server: NginxServer
    let folder: TemporaryDirectory
    let store: StateStore
    /// The wall-clock time the driver sees.
    nonisolated(unsafe) var now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 200k; } location /crawl/ { limit_rate 10k; }")
        folder = try TemporaryDirectory(prefix: "sync-driver")
        store = try StateStore(directory: folder.appending("state"))
        for name in ["a.pdf", "b.pdf", "c.pdf"] { try server.serve(name, Data(repeating: 0x25, count: 2_000)) }
    }

    deinit {
        server.stop()
        folder.remove()
    }

    func entry(_ title: String, _ name: String) -> Manifest.Entry {
        Manifest.Entry(title: title, url: server.url(name), path: name, schedule: Manifest.Schedule(every: .seconds(3600)))
    }

    func manifest(_ entries: [Manifest.Entry]) -> Manifest {
        Manifest(destination: folder.appending("files"), files: entries)
    }

    func driver(_ mode: SyncDriver.Mode, observe: @escaping (TransferEvent, SyncDriver.TrackedFile) -> Void = { _, _ in }) -> SyncDriver {
        SyncDriver(store: store, mode: mode, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now }, observe: observe)
    }

    func runUntilIdle(_ driver: SyncDriver) {
        while !driver.isIdle { driver.step(until: nil) }
    }

    @Test func everyFileNowFetchesAllButHeldFilesAndReportsThemInManifestOrder() throws {
        let files = manifest([entry("A", "a.pdf"), entry("B", "b.pdf"), entry("C", "c.pdf")])
        try Holds.hold([files.files[1]], in: files, as: .paused, store: store)
        let driver = driver(.everyFileNow)
        driver.use(files)

        guard case .finished(let report?) = try driver.runOneBatch(stoppingOn: nil) else {
            Issue.record("the batch did not finish with a report")
            return
        }
        #expect(report.results.map(\.title) == ["A", "C"])
        #expect(report.results.allSatisfy { $0.outcome == .downloaded(bytes: 2_000) })
        #expect(report.stillFailing.isEmpty)
        #expect(driver.held == ["B"])
        #expect(FileManager.default.fileExists(atPath: folder.appending("files/c.pdf")))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("files/b.pdf")))
    }

    @Test func onScheduleFetchesMissingFilesThenWaitsForEveryThenReChecks() throws {
        let driver = driver(.onSchedule)
        driver.use(manifest([entry("A", "a.pdf"), entry("B", "b.pdf")]))

        #expect(try driver.plan(conditions: nil) == nil)
        #expect(driver.pendingCount == 2)
        runUntilIdle(driver)
        #expect(driver.finishBatch()?.results.map(\.outcome) == [.downloaded(bytes: 2_000), .downloaded(bytes: 2_000)])

        let checked = now
        now += 1_800
        #expect(try driver.plan(conditions: nil) == checked.addingTimeInterval(3_600))
        #expect(driver.pendingCount == 0)
        #expect(driver.waiting[folder.appending("files/a.pdf")] == .notDue(until: checked.addingTimeInterval(3_600)))
        #expect(driver.finishBatch() == nil)

        now += 1_801
        _ = try driver.plan(conditions: nil)
        #expect(driver.pendingCount == 2)
        runUntilIdle(driver)
        #expect(driver.finishBatch()?.results.map(\.outcome) == [.unchanged, .unchanged])
        #expect(server.requests(for: "/a.pdf", count: 2).last?.ifNoneMatch.isEmpty == false)
    }

    /// A driver in the agent's mode that has planned `entries`, run one at a time.
    func plannedOneAtATime(_ entries: [Manifest.Entry]) throws -> SyncDriver {
        var files = manifest(entries)
        files.limits = Manifest.Limits(concurrent: 1, perHost: 1)
        let driver = driver(.onSchedule)
        driver.use(files)
        _ = try driver.plan(conditions: nil)
        return driver
    }

    /// Making the engine sets libcurl up (it opens libcurl and some thirty libraries): a dry
    /// run, or a round that starts nothing, must not, and the engine made later still gets
    /// the manifest's limits and retry policy.
    @Test func theEngineIsMadeOnlyWhenARoundHandsItATransfer() throws {
        var files = manifest([entry("A", "a.pdf"), entry("B", "b.pdf")])
        files.limits.concurrent = 3
        files.limits.perHost = 1
        files.retry.attempts = 2
        try Holds.hold(files.files, in: files, as: .paused, store: store)
        let driver = driver(.everyFileNow)
        driver.use(files)
        #expect(try driver.preview().count == 2)
        #expect(try driver.previewFeeds().isEmpty)
        #expect(driver.pendingCount == 0 && driver.isIdle && !driver.runsWorkTheUserAskedFor)
        #expect(try driver.status().count == 2)
        guard case .finished(nil) = try driver.runOneBatch(stoppingOn: nil) else {
            Issue.record("a batch of held files reported something")
            return
        }
        driver.stopAll()
        #expect(driver.madeEngine == nil, "a driver that handed no transfer made its engine")

        var more = manifest(files.files + [entry("C", "c.pdf")])
        more.limits.concurrent = 4
        more.retry.attempts = 3
        driver.use(more)
        _ = try driver.plan(conditions: nil)
        #expect(driver.madeEngine?.limits == more.limits)
        #expect(driver.madeEngine?.retry == more.retry)
        #expect(driver.pendingCount == 1)
        runUntilIdle(driver)
        #expect(driver.finishBatch()?.results.map(\.title) == ["C"])
    }

    @Test func aRoundMakesEachRequestOnlyWhenItsTransferCanStart() throws {
        let driver = try plannedOneAtATime([entry("A", "a.pdf"), entry("B", "b.pdf"), entry("C", "c.pdf")])
        #expect(driver.pendingCount == 3)
        #expect(driver.inFlight.isEmpty)
        #expect(driver.pendingFiles.map(\.title) == ["A", "B", "C"])
        #expect(driver.pendingFiles.map(\.path) == ["a.pdf", "b.pdf", "c.pdf"].map { folder.appending("files/\($0)") })

        driver.step(until: nil)
        #expect(driver.inFlight.count == 1)
        #expect(driver.pendingFiles.map(\.title) == ["A", "B", "C"])
        runUntilIdle(driver)
        #expect(driver.finishBatch()?.results.map(\.title) == ["A", "B", "C"])
        // Their transfers over, the files keep no ids.
        #expect(driver.ids.isEmpty)
    }

    @Test func filesWaitingToStartWhenTheManifestChangesRunAsPlannedAndAreReportedInItsNewOrder() throws {
        let driver = try plannedOneAtATime([entry("A", "a.pdf"), entry("B", "b.pdf"), entry("C", "c.pdf")])
        driver.step(until: nil)

        var edited = manifest([entry("C", "c.pdf"), entry("A", "a.pdf")])
        edited.limits = Manifest.Limits(concurrent: 1, perHost: 1)
        driver.use(edited)
        runUntilIdle(driver)

        let report = try #require(driver.finishBatch())
        #expect(report.results.map(\.title) == ["C", "A", "B"])
        #expect(report.results.allSatisfy { $0.outcome == .downloaded(bytes: 2_000) })
        #expect(report.results.map(\.path) == ["c.pdf", "a.pdf", "b.pdf"].map { folder.appending("files/\($0)") })
    }

    @Test func aDiscretionaryFileWaitingToStartIsPausedWithTheRunningOnes() throws {
        // A runs for seconds (the server sends 10 kB/s): it is running when the conditions turn.
        try server.serve("crawl/a.pdf", Data(repeating: 0x25, count: 100_000))
        var first = entry("A", "crawl/a.pdf")
        var second = entry("B", "b.pdf")
        first.schedule.discretionary = true
        second.schedule.discretionary = true
        let driver = try plannedOneAtATime([first, second, entry("C", "c.pdf")])
        driver.step(until: nil)

        let paused = driver.pauseDiscretionaryTransfers(under: Conditions(onMainsPower: false, networkAvailable: true, networkMetered: false))
        #expect(paused == ["A", "B"])
        #expect(driver.pendingFiles.map(\.title) == ["C"])
        runUntilIdle(driver)
    }

    /// How many times a driver asked for its time zone (``countedTimeZone()``).
    nonisolated(unsafe) var timeZoneAsks = 0

    func countedTimeZone() -> TimeZone {
        timeZoneAsks += 1
        return TimeZone(identifier: "UTC")!
    }

    @Test func onlyARoundThatAppliesTimeRulesAsksForTheTimeZone() throws {
        var windowed = entry("A", "a.pdf")
        windowed.schedule.window = Manifest.DailyWindow(start: 60, end: 120)
        let once = SyncDriver(store: store, mode: .everyFileNow, timeZone: self.countedTimeZone(), now: { [unowned self] in now })
        once.use(manifest([windowed]))
        _ = try once.plan(conditions: nil)
        runUntilIdle(once)
        // `--once` starts every file whatever its window: finding the zone would be wasted.
        #expect(timeZoneAsks == 0)

        let agent = SyncDriver(store: store, mode: .onSchedule, timeZone: self.countedTimeZone(), now: { [unowned self] in now })
        agent.use(manifest([windowed]))
        _ = try agent.plan(conditions: nil)
        _ = try agent.plan(conditions: nil)
        #expect(timeZoneAsks == 1)
        runUntilIdle(agent)
    }

    @Test func onScheduleLeavesDiscretionaryFilesForGoodConditions() throws {
        var discretionary = entry("A", "a.pdf")
        discretionary.schedule.discretionary = true
        let driver = driver(.onSchedule)
        driver.use(manifest([discretionary, entry("B", "b.pdf")]))

        _ = try driver.plan(conditions: Conditions(onMainsPower: false, networkAvailable: true, networkMetered: false))

        #expect(driver.pendingCount == 1)
        #expect(driver.waiting[folder.appending("files/a.pdf")] == .waitingForMainsPower)
        runUntilIdle(driver)
    }

    @Test func aBatchReportNamesFilesThatStillFailFromBefore() throws {
        let driver = driver(.onSchedule)
        let missing = entry("Gone", "gone.pdf")
        driver.use(manifest([entry("A", "a.pdf"), missing]))
        _ = try driver.plan(conditions: nil)
        runUntilIdle(driver)
        let first = try #require(driver.finishBatch())
        #expect(first.results.map(\.title) == ["A", "Gone"])

        driver.use(manifest([entry("A", "a.pdf"), missing, entry("C", "c.pdf")]))
        _ = try driver.plan(conditions: nil)
        runUntilIdle(driver)
        let second = try #require(driver.finishBatch())

        #expect(second.results.map(\.title) == ["C"])
        #expect(second.stillFailing.map(\.title) == ["Gone"])
        #expect(second.stillFailing.first?.reason.contains("404") == true)
    }

    @Test func aUsersStartBeatsTheSchedule() throws {
        let driver = driver(.onSchedule)
        let files = manifest([entry("A", "a.pdf")])
        driver.use(files)
        _ = try driver.plan(conditions: nil)
        runUntilIdle(driver)
        _ = driver.finishBatch()
        _ = try driver.plan(conditions: nil)
        #expect(driver.pendingCount == 0)

        try driver.release(files.files)
        #expect(driver.planRequested)
        _ = try driver.plan(conditions: nil)

        #expect(driver.pendingCount == 1)
        runUntilIdle(driver)
        #expect(driver.finishBatch()?.results.map(\.outcome) == [.unchanged])
    }

    @Test func aStopRequestEndsTheBatchAndNamesWhatWasUnfinished() throws {
        try server.serve("slow/big.bin", Data(repeating: 7, count: 3 << 20))
        let requests = PipeRequests()
        let driver = driver(.everyFileNow) { event, _ in
            if case .progress = event { requests.send(.stop) }
        }
        driver.use(manifest([entry("Big", "slow/big.bin")]))

        guard case .interrupted(let resuming, let startingOver) = try driver.runOneBatch(stoppingOn: requests) else {
            Issue.record("the batch was not interrupted")
            return
        }
        #expect(resuming == ["Big"])
        #expect(startingOver.isEmpty)
        #expect(try store.record(forPath: folder.appending("files/slow/big.bin"))?.partial != nil)
    }

    /// Stops a batch of `files` once its body starts arriving; returns how it ended.
    func interruptedBatch(_ files: [Manifest.Entry]) throws -> SyncDriver.BatchEnd {
        let requests = PipeRequests()
        let driver = driver(.everyFileNow) { event, _ in
            if case .receiving = event { requests.send(.stop) }
        }
        driver.use(manifest(files))
        return try driver.runOneBatch(stoppingOn: requests)
    }

    @Test func aPartialBetween128KiBAnd1MiBIsResumedAndSaysSo() throws {
        try server.serve("slow/mid.pdf", Data(repeating: 9, count: 700_000))

        guard case .interrupted(let resuming, _) = try interruptedBatch([entry("Mid", "slow/mid.pdf")]) else {
            Issue.record("the batch was not interrupted")
            return
        }
        #expect(resuming == ["Mid"])

        guard case .finished(let report) = try driver(.everyFileNow).runAgain([entry("Mid", "slow/mid.pdf")], in: manifest) else {
            Issue.record("the second batch did not finish")
            return
        }
        #expect(report?.results.first?.outcome == .downloaded(bytes: 700_000))
        let second = server.requests(for: "/slow/mid.pdf", count: 2).last
        #expect(second?.range.hasPrefix("bytes=") == true)
        #expect(FileManager.default.contents(atPath: folder.appending("files/slow/mid.pdf")) == Data(repeating: 9, count: 700_000))
    }

    @Test func aSmallNewFileStartsOverAndSaysSo() throws {
        try server.serve("crawl/small.pdf", Data(repeating: 5, count: 120_000))

        guard case .interrupted(let resuming, let startingOver) = try interruptedBatch([entry("Small", "crawl/small.pdf")]) else {
            Issue.record("the batch was not interrupted")
            return
        }
        #expect(resuming.isEmpty)
        #expect(startingOver == ["Small"])
    }
}

extension SyncDriver {
    /// Uses a manifest of `files` and runs one batch to its end.
    func runAgain(_ files: [Manifest.Entry], in manifest: ([Manifest.Entry]) -> Manifest) throws -> BatchEnd {
        use(manifest(files))
        return try runOneBatch(stoppingOn: nil)
    }
}
