import Foundation
import Logging
import Testing
import TestSupport
@testable import SyncAgentKit

/// The agent's loop in this process, against a real nginx, with a wall clock the test moves:
/// when it plans, what it re-checks, and what each batch says.
@Suite(.serialized) final class AgentLoopTests {
    let server: NginxServer
    let folder: TemporaryDirectory
    let clock = ManualClock(at: Date(timeIntervalSince1970: 1_790_000_000))
    let requests = PipeRequests()
    let notifier = RecordingNotifier()
    private let ended = DispatchSemaphore(value: 0)
    private var running = false

    init() throws {
        server = try NginxServer()
        folder = try TemporaryDirectory(prefix: "agent-loop")
        try server.serve("a.pdf", Data(repeating: 1, count: 3_000))
        try server.serve("c.pdf", Data(repeating: 3, count: 3_000))
    }

    deinit {
        if running {
            requests.send(.stop)
            _ = ended.wait(timeout: .now() + 10)
        }
        server.stop()
        folder.remove()
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var statePath: String { folder.appending("state") }

    /// Saves the manifest as many editors do: written aside, renamed over the old one.
    func writeManifest(_ entries: [(title: String, name: String)]) throws {
        var text = "destination: \(folder.appending("files"))\nschedule:\n  every: 1h\nfiles:\n"
        for entry in entries { text += "  - title: \(entry.title)\n    url: \(server.url(entry.name))\n" }
        try text.write(toFile: manifestPath + ".new", atomically: false, encoding: .utf8)
        rename(manifestPath + ".new", manifestPath)
    }

    func startAgent() throws {
        let configuration = Agent.Configuration(
            manifestPath: manifestPath,
            loadManifest: { [manifestPath, folder] () throws(InvalidManifest) in
                try ManifestLoader(context: .init(
                    manifestPath: manifestPath, homeDirectory: folder.path,
                    defaultDestination: folder.appending("files"), workingDirectory: folder.path
                )).load()
            },
            store: try StateStore(directory: statePath),
            notifier: notifier,
            lockPath: statePath + "/agent.lock",
            controlSocketPath: statePath + "/control.sock",
            watchConditions: false,
            timeZone: TimeZone(identifier: "UTC")!,
            clock: clock,
            logger: Logger(label: "agent-loop-test") { _ in SwiftLogNoOpLogHandler() }
        )
        let requests = requests
        let ended = ended
        nonisolated(unsafe) let unsafeConfiguration = configuration
        running = true
        Thread.detachNewThread {
            do throws(AgentError) {
                try Agent(configuration: unsafeConfiguration).run(requests: requests)
            } catch {
                Issue.record("the agent did not start: \(error)")
            }
            ended.signal()
        }
    }

    /// What `syncagent status` would show for the file titled `title`.
    func status(of title: String) throws -> FileStatus? {
        try ControlClient.send(ControlRequest(.status), to: statePath + "/control.sock").files?.first { $0.title == title }
    }

    /// Waits (up to ten seconds) until `condition` holds.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    @Test func reChecksWhenTheInjectedClockSaysEveryHasPassedAndNotBefore() throws {
        try writeManifest([("A", "a.pdf")])
        let start = clock.now()
        try startAgent()

        #expect(notifier.waitFor(1).first?.summary == "All files have been downloaded!")
        #expect(eventually { clock.armedMoment == start.addingTimeInterval(3_600) })

        clock.advance(by: 1_800)
        #expect(try status(of: "A")?.state == .upToDate)
        #expect(server.requests(for: "/a.pdf").count == 1)

        clock.advance(by: 1_801)
        let checks = server.requests(for: "/a.pdf", count: 2)
        #expect(checks.count == 2)
        #expect(checks.last?.ifNoneMatch.isEmpty == false)
        #expect(try eventually { try status(of: "A")?.lastResult == "unchanged" })
        #expect(try status(of: "A")?.lastResultDate == clock.now())
        #expect(notifier.notifications.count == 1, "a check that found nothing new is silent")
    }

    @Test func neverSaysAllDownloadedWhileAFileStillFails() throws {
        try writeManifest([("A", "a.pdf"), ("Annual Report", "gone.pdf")])
        try startAgent()
        let first = notifier.waitFor(1).first
        #expect(first?.summary == "1 of 2 files could not be downloaded")

        try writeManifest([("A", "a.pdf"), ("Annual Report", "gone.pdf"), ("C", "c.pdf")])
        let second = notifier.waitFor(2).dropFirst().first

        #expect(second?.summary == "1 new file · 1 still failing")
        #expect(second?.body.contains("Annual Report: the server answered 404") == true)
        #expect(server.requests(for: "/gone.pdf").count == 1, "a permanent failure waits for its next check")
    }

    @Test func forgetsFilesThatLeftTheManifestLongAgoWhenIdle() throws {
        try writeManifest([("A", "a.pdf"), ("C", "c.pdf")])
        try startAgent()
        #expect(notifier.waitFor(1).first?.summary == "All files have been downloaded!")
        let state = try StateStore(directory: statePath)
        let c = folder.appending("files/c.pdf")
        #expect(try eventually { try state.lastPrune() == clock.now() }, "the first idle moment notes the first day")

        try writeManifest([("A", "a.pdf")])
        #expect(try eventually { try status(of: "C") == nil }, "the agent follows the edit")
        clock.advance(by: 30 * 86_400)
        #expect(server.requests(for: "/a.pdf", count: 2).count == 2)
        #expect(try eventually { try state.lastPrune() == clock.now() })
        #expect(try state.record(forPath: c) != nil, "30 days untouched: kept")

        clock.advance(by: 61 * 86_400)
        #expect(server.requests(for: "/a.pdf", count: 3).count == 3)
        #expect(try eventually { try state.record(forPath: c) == nil })
        #expect(try state.record(forPath: folder.appending("files/a.pdf")) != nil)
    }

    @Test func stopsWhenAsked() throws {
        try writeManifest([("A", "a.pdf")])
        try startAgent()
        _ = notifier.waitFor(1)

        requests.send(.stop)

        #expect(ended.wait(timeout: .now() + 10) == .success)
        running = false
        #expect(throws: ControlError.self) { try status(of: "A") }
    }
}
