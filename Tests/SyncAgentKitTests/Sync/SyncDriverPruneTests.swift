import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Where the driver prunes: when a batch is over, never while a transfer runs, never on a
/// state opened to read only (a dry run). Against a real nginx; time is a variable.
@Suite(.serialized) final class SyncDriverPruneTests {
    let server: NginxServer
    let folder: TemporaryDirectory
    nonisolated(unsafe) var now = Date(timeIntervalSince1970: 1_790_000_000)
    let day: TimeInterval = 86_400

    init() throws {
        server = try NginxServer(locations: "location /crawl/ { limit_rate 10k; }")
        folder = try TemporaryDirectory(prefix: "sync-prune")
        for name in ["a.pdf", "b.pdf", "c.pdf", "crawl/slow.pdf"] { try server.serve(name, Data(repeating: 0x25, count: 2_000)) }
    }

    deinit {
        server.stop()
        folder.remove()
    }

    var stateDirectory: String { folder.appending("state") }

    func manifest(_ names: [String]) -> Manifest {
        Manifest(destination: folder.appending("files"), files: names.map {
            Manifest.Entry(title: $0, url: server.url($0), path: $0, schedule: Manifest.Schedule(every: .seconds(3600)))
        })
    }

    func driver(_ store: StateStore, _ mode: SyncDriver.Mode = .everyFileNow) -> SyncDriver {
        SyncDriver(store: store, mode: mode, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now })
    }

    func savedPaths(_ store: StateStore) throws -> [String] {
        try store.records().map { String($0.path.dropFirst(folder.appending("files/").count)) }
    }

    @Test func aBatchEndForgetsFilesThatLeftTheManifestLongAgo() throws {
        let store = try StateStore(directory: stateDirectory)
        let all = driver(store)
        all.use(manifest(["a.pdf", "b.pdf", "c.pdf"]))
        _ = try all.runOneBatch(stoppingOn: nil)
        #expect(try savedPaths(store) == ["a.pdf", "b.pdf", "c.pdf"])

        // The same day, with b and c gone from the manifest: too young, and a prune ran today.
        now += 3_600
        let fewer = driver(store)
        fewer.use(manifest(["a.pdf"]))
        _ = try fewer.runOneBatch(stoppingOn: nil)
        #expect(try savedPaths(store) == ["a.pdf", "b.pdf", "c.pdf"])

        now += 100 * day
        let later = driver(store)
        later.use(manifest(["a.pdf"]))
        _ = try later.runOneBatch(stoppingOn: nil)
        #expect(try savedPaths(store) == ["a.pdf"])
        #expect(try store.lastPrune() == now)
        // Pruned once today: asking again does nothing.
        #expect(try later.pruneStaleRecordsIfDue() == nil)
    }

    @Test func noPruneWhileATransferRunsOrOnAStateOpenedToReadOnly() throws {
        let store = try StateStore(directory: stateDirectory)
        let first = driver(store)
        first.use(manifest(["a.pdf", "b.pdf"]))
        _ = try first.runOneBatch(stoppingOn: nil)
        let firstBatch = now
        #expect(try store.lastPrune() == firstBatch)
        now += 100 * day

        let dryRun = driver(try StateStore(readingOnlyIn: stateDirectory))
        dryRun.use(manifest(["a.pdf"]))
        #expect(try dryRun.pruneStaleRecordsIfDue() == nil)

        let agent = driver(store, .onSchedule)
        agent.use(manifest(["crawl/slow.pdf"]))
        _ = try agent.plan(conditions: nil)
        #expect(!agent.isIdle)
        #expect(try agent.pruneStaleRecordsIfDue() == nil)
        #expect(try savedPaths(store) == ["a.pdf", "b.pdf"])
        #expect(try store.lastPrune() == firstBatch)
        agent.stopAll()

        #expect(try agent.pruneStaleRecordsIfDue() == .init(files: [folder.appending("files/a.pdf"), folder.appending("files/b.pdf")]))
        #expect(try store.lastPrune() == now)
    }
}
