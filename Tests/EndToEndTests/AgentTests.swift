import Foundation
import Testing
import TestSupport

/// The login agent — the built binary with no command — against nginx on 127.0.0.1, a
/// private session bus with a recording notification server, and a private system bus with
/// fake NetworkManager and UPower services.
@Suite(.serialized)
struct AgentTests {
    let server: NginxServer
    let bus: NotificationBus
    let systemBus: PrivateSystemBus
    let networkManager: FakeSystemService
    let upower: FakeSystemService
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 1m; rewrite ^/slow/(.*)$ /$1 break; }")
        bus = try NotificationBus()
        systemBus = try PrivateSystemBus()
        networkManager = try FakeSystemService.networkManager(on: systemBus)
        upower = try FakeSystemService.upower(onBattery: false, on: systemBus)
        folder = try TemporaryDirectory(prefix: "agent")
        var environment = bus.clientEnvironment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["HOME"] = folder.appending("home")
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("config/manifest.yaml") }
    var destination: String { folder.appending("Guides") }

    /// Writes the manifest the way many editors save: a new file renamed over the old one.
    func writeManifest(_ body: String) throws {
        try FileManager.default.createDirectory(atPath: folder.appending("config"), withIntermediateDirectories: true)
        try "destination: \(destination)\n\(body)".write(toFile: manifestPath + ".tmp", atomically: false, encoding: .utf8)
        rename(manifestPath + ".tmp", manifestPath)
    }

    func entry(_ title: String, _ path: String) -> String {
        "  - title: \(title)\n    url: \(server.url(path))\n"
    }

    func startAgent() throws -> Process {
        try syncagent.start(["--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "agent")
    }

    func serve(_ name: String, size: Int) throws -> Data {
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: size)
        try server.serve(name, data)
        return data
    }

    func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: destination + "/" + name)
    }

    /// Ends an agent: SIGTERM, and SIGKILL if it overstays.
    func stop(_ agent: Process) {
        guard agent.isRunning else { return }
        kill(agent.processIdentifier, SIGTERM)
        if !eventually(within: .seconds(5), { !agent.isRunning }) { kill(agent.processIdentifier, SIGKILL) }
        agent.waitUntilExit()
    }

    @Test func mirrorsTheManifestAndPicksUpAnAddedEntryWithoutARestart() throws {
        let a = try serve("a.pdf", size: 300_000)
        let b = try serve("b.pdf", size: 600_000)
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + entry("Guide B", "b.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }

        #expect(eventually(within: .seconds(10)) { (try? bus.recordedNotifications().count) == 1 })
        #expect(contents("a.pdf") == a && contents("b.pdf") == b)
        #expect(try bus.recordedNotifications().first?.summary == "All files have been downloaded!")
        #expect(try bus.recordedNotifications().first?.body == "2 files, 900 KB, in \(destination)")

        let c = try serve("c.pdf", size: 50_000)
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + entry("Guide B", "b.pdf") + entry("Guide C", "c.pdf"))
        #expect(eventually(within: .seconds(4)) { contents("c.pdf") == c })
        #expect(eventually(within: .seconds(2)) { (try? bus.recordedNotifications().count) == 2 })
        #expect(try bus.recordedNotifications().last?.body == "1 file, 50.0 KB, in \(destination)")
        #expect(agent.isRunning)
        // The files already mirrored were not fetched again.
        #expect(server.requests(for: "/a.pdf", count: 1).count == 1)
    }

    @Test func aBrokenEditIsReportedOnceAndTheLastGoodManifestStaysInForce() throws {
        _ = try serve("a.pdf", size: 1_000)
        try writeManifest("files:\n" + entry("Guide A", "a.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(10)) { (try? bus.recordedNotifications().count) == 1 })

        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + "  - titel: Guide B\n    url: \(server.url("b.pdf"))\n")
        #expect(eventually(within: .seconds(3)) { (try? bus.recordedNotifications().count) == 2 })
        let notice = try #require(try bus.recordedNotifications().last)
        #expect(notice.summary == "The manifest has a problem")
        #expect(notice.body.hasPrefix("\(manifestPath):5:5: unknown key \"titel\" in a file entry; did you mean \"title\"?"))
        #expect(notice.body.hasSuffix("syncagent goes on with the last good version."))
        #expect(notice.urgency == 2)
        #expect(agent.isRunning)

        // Saving the same mistake again is not told twice; a fix is picked up.
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + "  - titel: Guide B\n    url: \(server.url("b.pdf"))\n")
        #expect(!eventually(within: .milliseconds(800)) { (try? bus.recordedNotifications().count) != 2 })
        let b = try serve("b.pdf", size: 2_000)
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + entry("Guide B", "b.pdf"))
        #expect(eventually(within: .seconds(4)) { contents("b.pdf") == b })
        #expect(eventually(within: .seconds(2)) { (try? bus.recordedNotifications().count) == 3 })
        #expect(try bus.recordedNotifications().last?.summary == "All files have been downloaded!")
    }

    @Test func aKilledAgentResumesWithARangeRequestAfterItsRestart() throws {
        let data = try serve("big.pdf", size: 5_000_000)
        try writeManifest("files:\n" + entry("Big", "slow/big.pdf"))
        let part = destination + "/.big.pdf.part"
        let first = try startAgent()
        #expect(eventually(within: .seconds(10)) { fileSize(part) >= 1_500_000 })
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()

        let second = try startAgent()
        defer { stop(second) }
        #expect(eventually(within: .seconds(15)) { contents("big.pdf") == data })
        let resumed = try #require(server.requests(for: "/slow/big.pdf", count: 2).last)
        #expect(resumed.status == 206)
        #expect(resumed.range.hasPrefix("bytes="))
        #expect(!FileManager.default.fileExists(atPath: part))
    }

    @Test func sigtermStopsWithinTwoSecondsKeepingThePartial() throws {
        _ = try serve("big.pdf", size: 5_000_000)
        try writeManifest("files:\n" + entry("Big", "slow/big.pdf"))
        let part = destination + "/.big.pdf.part"
        let agent = try startAgent()
        #expect(eventually(within: .seconds(10)) { fileSize(part) >= 1_200_000 })
        let signalled = ContinuousClock.now
        kill(agent.processIdentifier, SIGTERM)
        #expect(eventually(within: .seconds(2)) { !agent.isRunning })
        stop(agent)
        #expect(ContinuousClock.now - signalled < .seconds(2))
        #expect(agent.terminationStatus == 0)
        #expect(fileSize(part) >= 1_200_000)
        #expect(contents("big.pdf") == nil)
    }

    @Test func aSecondAgentForTheSameStateRefusesToStart() throws {
        try writeManifest("files: []\n")
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        let second = try syncagent.run(["--manifest", manifestPath, "--state-dir", folder.appending("state")])
        #expect(second.status == 4)
        #expect(second.standardError.contains("syncagent is already running for this user (process \(agent.processIdentifier))"))
        #expect(agent.isRunning)
    }

    @Test func discretionaryWorkWaitsForAnUnmeteredNetwork() throws {
        try networkManager.set("Metered", to: .uint32(1))
        let data = try serve("episode.mp3", size: 10_000)
        try writeManifest("schedule:\n  discretionary: true\nfiles:\n" + entry("Episode", "episode.mp3"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(!eventually(within: .seconds(2)) { contents("episode.mp3") != nil })
        #expect(server.requests(for: "/episode.mp3").isEmpty)

        try networkManager.set("Metered", to: .uint32(2))
        #expect(eventually(within: .seconds(3)) { contents("episode.mp3") == data })
    }

    /// A discretionary transfer in flight pauses when `flip` turns conditions against it,
    /// keeping what arrived, and continues with a `Range` request when `flipBack` restores them.
    func pausesAndResumesDiscretionaryTransfer(logLine: String, flip: () throws -> Void, flipBack: () throws -> Void) throws {
        let data = try serve("episode.mp3", size: 5_000_000)
        try writeManifest("schedule:\n  discretionary: true\nfiles:\n" + entry("Episode", "slow/episode.mp3"))
        let agent = try startAgent()
        defer { stop(agent) }
        let part = destination + "/.episode.mp3.part"
        #expect(eventually(within: .seconds(10)) { fileSize(part) >= 1_000_000 })

        try flip()
        #expect(eventually(within: .seconds(3)) { agentLog().contains(logLine) }, "\(agentLog())")
        let kept = fileSize(part)
        #expect(kept >= 1_000_000)
        #expect(!eventually(within: .seconds(2)) { contents("episode.mp3") != nil || server.requests(for: "/slow/episode.mp3").count > 1 })
        #expect(!agentLog().contains("failed"))

        try flipBack()
        #expect(eventually(within: .seconds(10)) { contents("episode.mp3") == data })
        let resumed = try #require(server.requests(for: "/slow/episode.mp3", count: 2).last)
        #expect(resumed.status == 206)
        #expect(resumed.range.hasPrefix("bytes="))
        // One batch, one notification, whatever paused it meanwhile.
        #expect(eventually(within: .seconds(3)) { (try? bus.recordedNotifications().count) == 1 })
    }

    @Test func aDiscretionaryTransferPausesOnBatteryAndResumesOnMains() throws {
        try pausesAndResumesDiscretionaryTransfer(
            logLine: "on battery: paused Episode, keeping what arrived; they continue when conditions allow",
            flip: { try upower.set("OnBattery", to: .boolean(true)) },
            flipBack: { try upower.set("OnBattery", to: .boolean(false)) }
        )
    }

    @Test func aDiscretionaryTransferPausesOnAMeteredNetworkAndResumesOffIt() throws {
        try pausesAndResumesDiscretionaryTransfer(
            logLine: "on a metered network: paused Episode, keeping what arrived; they continue when conditions allow",
            flip: { try networkManager.set("Metered", to: .uint32(1)) },
            flipBack: { try networkManager.set("Metered", to: .uint32(2)) }
        )
    }

    @Test func aTransferTheUserDidNotMarkDiscretionaryRunsOnBattery() throws {
        let data = try serve("guide.pdf", size: 3_000_000)
        try writeManifest("files:\n" + entry("Guide", "slow/guide.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(10)) { fileSize(destination + "/.guide.pdf.part") >= 1_000_000 })
        try upower.set("OnBattery", to: .boolean(true))
        #expect(eventually(within: .seconds(10)) { contents("guide.pdf") == data })
        #expect(server.requests(for: "/slow/guide.pdf").count == 1)
        #expect(!agentLog().contains("paused"))
    }

    @Test func discretionaryWorkWaitsForMainsPower() throws {
        try upower.set("OnBattery", to: .boolean(true))
        let data = try serve("episode.mp3", size: 10_000)
        try writeManifest("schedule:\n  discretionary: true\nfiles:\n" + entry("Episode", "episode.mp3"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(!eventually(within: .seconds(2)) { contents("episode.mp3") != nil })

        try upower.set("OnBattery", to: .boolean(false))
        #expect(eventually(within: .seconds(3)) { contents("episode.mp3") == data })
    }
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// The agent's relations with `--once` and with signals.
extension AgentTests {
    @Test func sighupReadsTheManifestAgain() throws {
        try writeManifest("files: []\n")
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        kill(agent.processIdentifier, SIGHUP)
        #expect(eventually(within: .seconds(2)) { agentLog().contains("SIGHUP: reading the manifest again") })
        #expect(agent.isRunning)
    }

    @Test func onceRefusesWhileTheAgentRuns() throws {
        try writeManifest("files: []\n")
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        let once = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")])
        #expect(once.status == 4)
        #expect(once.standardError.contains("syncagent is already running for this user"))
    }

    @Test func interruptingOnceKeepsThePartialAndExits130() throws {
        _ = try serve("big.pdf", size: 5_000_000)
        try writeManifest("files:\n" + entry("Big", "slow/big.pdf"))
        let part = destination + "/.big.pdf.part"
        let once = try syncagent.start(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "agent")
        #expect(eventually(within: .seconds(10)) { fileSize(part) >= 1_200_000 })
        kill(once.processIdentifier, SIGINT)
        #expect(eventually(within: .seconds(2)) { !once.isRunning })
        stop(once)
        #expect(once.terminationStatus == 130)
        #expect(fileSize(part) >= 1_200_000)
        #expect(agentLog().contains("interrupted; the next run resumes Big where it stopped"))
    }

    /// What the agent (or a `--once` started like it) wrote to stderr.
    func agentLog() -> String {
        (try? String(contentsOfFile: folder.appending("agent.err"), encoding: .utf8)) ?? ""
    }
}
