import Foundation
import Testing
import TestSupport

/// The bandwidth budget in the built binary, against nginx on 127.0.0.1. Only one-sided
/// bounds: a capped transfer is never faster than its cap, however slow the machine; how
/// close it comes to the cap is measured by `bench/bandwidth-cap`, not here.
@Suite(.serialized)
struct BandwidthTests {
    let server: NginxServer
    let bus: NotificationBus
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        server = try NginxServer()
        bus = try NotificationBus()
        folder = try TemporaryDirectory(prefix: "bandwidth")
        var environment = bus.clientEnvironment
        environment["HOME"] = folder.appending("home")
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var destination: String { folder.appending("Guides") }

    func serve(_ names: [String], size: Int) throws -> [String: Data] {
        var served: [String: Data] = [:]
        for name in names {
            let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: size)
            try server.serve(name, data)
            served[name] = data
        }
        return served
    }

    func writeManifest(limits: String, names: [String]) throws {
        var text = "destination: \(destination)\nnotify: false\nlimits:\n\(limits)files:\n"
        for name in names { text += "  - url: \(server.url(name))\n" }
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    /// The bytes received so far of every file, as the running agent counts them.
    func receivedByAgent() throws -> Int {
        let status = try syncagent.run(["status", "--json", "--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "json")
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let files = object?["files"] as? [[String: Any]] ?? []
        return files.reduce(0) { $0 + (($1["bytesReceived"] as? Int) ?? ($1["state"] as? String == "up-to-date" ? 200_000 : 0)) }
    }

    @Test func theAgentHoldsAllTransfersTogetherUnderTheCapWithoutTrippingTheStallTimeout() throws {
        let names = ["a.pdf", "b.pdf", "c.pdf", "d.pdf"]
        let served = try serve(names, size: 200_000)
        // 100 KB/s over four transfers: 25 KB/s each, paused twenty times a second; a one-second
        // stall timeout would cut a transfer that the budget starved.
        try writeManifest(limits: "  bandwidth: 100KB/s\n  stall_timeout: 1s\n", names: names)
        let agent = try syncagent.start(["--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "agent")
        defer {
            kill(agent.processIdentifier, SIGTERM)
            agent.waitUntilExit()
        }
        // Part files grow in large blocks; the agent's own count is what arrived.
        #expect(eventually(within: .seconds(10)) { (try? receivedByAgent()) ?? 0 > 50_000 })
        let started = ContinuousClock.now
        let before = try receivedByAgent()
        usleep(3_000_000)
        let elapsed = ContinuousClock.now - started
        let rate = Double(try receivedByAgent() - before) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        // The budget may run one refill's credit ahead; never much more than the cap.
        #expect(rate < 150_000, "\(rate) B/s under a 100 KB/s cap")

        let status = try syncagent.run(["status", "--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "status")
        #expect(status.standardOutput.hasPrefix("Transfers are limited to 100 KB/s.\n"), "\(status.standardOutput)")

        #expect(eventually(within: .seconds(40)) { names.allSatisfy { FileManager.default.contents(atPath: destination + "/" + $0) == served[$0] } })
        let log = (try? String(contentsOfFile: folder.appending("agent.err"), encoding: .utf8)) ?? ""
        #expect(!log.contains("retrying"), "\(log)")
        #expect(server.requests(for: "/a.pdf").count == 1)
    }

    @Test func onceIgnoresTheManifestsCapUnlessGivenLimitRate() throws {
        let names = ["big.pdf"]
        let served = try serve(names, size: 3_000_000)
        try writeManifest(limits: "  bandwidth: 50KB/s\n", names: names)
        let uncapped = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")])
        #expect(uncapped.status == 0, "\(uncapped.standardError)")
        #expect(FileManager.default.contents(atPath: destination + "/big.pdf") == served["big.pdf"])
        // 3 MB at 50 KB/s would take a minute.
        #expect(uncapped.duration < .seconds(30))

        try FileManager.default.removeItem(atPath: destination + "/big.pdf")
        try FileManager.default.removeItem(atPath: folder.appending("state"))
        let cappedStart = ContinuousClock.now
        let capped = try syncagent.start(["--once", "--limit-rate", "500KB/s", "--manifest", manifestPath, "--state-dir", folder.appending("state")],
                                         output: "capped")
        defer { if capped.isRunning { kill(capped.processIdentifier, SIGKILL) } }
        capped.waitUntilExit()
        // 3 MB at 500 KB/s: six seconds at least, however fast the machine.
        #expect(ContinuousClock.now - cappedStart > .seconds(5))
        #expect(capped.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: destination + "/big.pdf") == served["big.pdf"])
    }

    @Test func aRateThatIsNoRateIsRefused() throws {
        try writeManifest(limits: "  concurrent: 1\n", names: ["x.pdf"])
        let run = try syncagent.run(["--once", "--limit-rate", "fast", "--manifest", manifestPath])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--limit-rate takes a rate such as 500KB/s or 2MB/s (units B/s, KB/s, MB/s, KiB/s, MiB/s), not \"fast\"."), "\(run.standardError)")
    }
}
