import Foundation
import Testing
import TestSupport

/// A batch the user asked for delays suspend — logind's `Inhibit("sleep", "syncagent", why,
/// "delay")`, recorded by a fake logind on a private system bus — once it has been receiving
/// for a second (``SleepDelayTiming``), to its end, and releases the lock the moment it ends;
/// a batch over within the second, a re-check that changes nothing and scheduled work never
/// take one.
@Suite(.serialized)
struct SleepDelayTests {
    let server: NginxServer
    let bus: NotificationBus
    let systemBus: PrivateSystemBus
    let logind: FakeLogind
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    static let lock = "inhibit sleep syncagent delay finishing the downloads you asked for"

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 1m; rewrite ^/slow/(.*)$ /$1 break; }")
        bus = try NotificationBus()
        systemBus = try PrivateSystemBus()
        logind = try FakeLogind(on: systemBus)
        folder = try TemporaryDirectory(prefix: "sleep")
        var environment = bus.clientEnvironment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["HOME"] = folder.appending("home")
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var destination: String { folder.appending("Guides") }

    func serve(_ name: String, size: Int) throws -> Data {
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: size)
        try server.serve(name, data)
        return data
    }

    func writeManifest(_ body: String) throws {
        try "destination: \(destination)\n\(body)".write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    @Test func onceHoldsTheDelayWhileItTransfersAndReleasesItAtTheEnd() throws {
        let data = try serve("big.pdf", size: 3_500_000)
        try writeManifest("files:\n  - title: Big\n    url: \(server.url("slow/big.pdf"))\n")
        let once = try syncagent.start(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")])
        defer { if once.isRunning { kill(once.processIdentifier, SIGKILL) } }

        #expect(eventually(within: .seconds(10)) { logind.events == [Self.lock] }, "\(logind.events)")
        #expect(once.isRunning && FileManager.default.contents(atPath: destination + "/big.pdf") == nil, "held while the file transfers")
        // Asked with syncagent's own D-Bus client: GLib, GObject and GIO (2.9 MiB) stay out.
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/\(once.processIdentifier)/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libcurl") && !maps.contains("libgio-2.0"), "\(maps)")
        once.waitUntilExit()
        #expect(once.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: destination + "/big.pdf") == data)
        #expect(eventually(within: .seconds(3)) { logind.events == [Self.lock, "release 1"] }, "\(logind.events)")
    }

    @Test func aBatchOfManyShortFilesTakesItOnceItHasRunASecond() throws {
        // One at a time, each 150 kB at 1 MB/s: no file lasts a second, the batch lasts three.
        // (syncagent's own cap: nginx's limit_rate sends a second's worth at once.)
        let names = (1...20).map { "part\($0).pdf" }
        for name in names { _ = try serve(name, size: 150_000) }
        try writeManifest("limits: { concurrent: 1, per_host: 1 }\nfiles:\n"
            + names.map { "  - title: \($0)\n    url: \(server.url($0))\n" }.joined())
        let once = try syncagent.start(["--once", "--limit-rate", "1MB/s", "--manifest", manifestPath, "--state-dir", folder.appending("state")])
        defer { if once.isRunning { kill(once.processIdentifier, SIGKILL) } }

        #expect(eventually(within: .seconds(10)) { logind.events == [Self.lock] }, "\(logind.events)")
        #expect(once.isRunning && FileManager.default.contents(atPath: destination + "/part20.pdf") == nil, "held while files transfer")
        once.waitUntilExit()
        #expect(once.terminationStatus == 0)
        #expect(eventually(within: .seconds(3)) { logind.events == [Self.lock, "release 1"] }, "\(logind.events)")
    }

    @Test func aBatchOverWithinASecondTakesNoLock() throws {
        let data = try serve("small.pdf", size: 100_000)
        try writeManifest("files:\n  - title: Small\n    url: \(server.url("small.pdf"))\n")
        let once = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "once")
        #expect(once.status == 0, "\(once.standardError)")
        #expect(FileManager.default.contents(atPath: destination + "/small.pdf") == data)
        // The file was on disk within milliseconds: logind was never asked (nor GLib opened).
        #expect(logind.events.isEmpty, "\(logind.events)")
    }

    @Test func aReCheckThatFindsEveryFileUnchangedTakesNoLock() throws {
        for name in ["one.pdf", "two.pdf"] { _ = try serve(name, size: 2_500_000) }
        try writeManifest("files:\n  - title: One\n    url: \(server.url("slow/one.pdf"))\n  - title: Two\n    url: \(server.url("slow/two.pdf"))\n")
        let arguments = ["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")]
        let first = try syncagent.run(arguments, output: "first")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(eventually(within: .seconds(3)) { logind.events == [Self.lock, "release 1"] }, "\(logind.events)")

        let recheck = try syncagent.run(arguments, output: "recheck")
        #expect(recheck.status == 0, "\(recheck.standardError)")
        // Both files were asked for again and were unchanged: nothing went to disk, so no lock.
        for name in ["/slow/one.pdf", "/slow/two.pdf"] {
            #expect(server.requests(for: name, count: 2).map(\.status) == [200, 304])
        }
        #expect(logind.events == [Self.lock, "release 1"], "\(logind.events)")
    }

    @Test func theAgentHoldsItOnlyForFilesTheUserStarted() throws {
        let scheduled = try serve("scheduled.pdf", size: 1_500_000)
        let started = try serve("started.pdf", size: 2_500_000)
        // The second file waits for a window that opened a minute ago and closed at once.
        let closed = Calendar.current.date(byAdding: .minute, value: -1, to: Date())!
        let window = String(format: "%02d:%02d-%02d:%02d",
                            Calendar.current.component(.hour, from: closed), Calendar.current.component(.minute, from: closed),
                            Calendar.current.component(.hour, from: Date()), Calendar.current.component(.minute, from: Date()))
        try writeManifest("""
            files:
              - title: Scheduled
                url: \(server.url("slow/scheduled.pdf"))
              - title: Started
                url: \(server.url("slow/started.pdf"))
                window: "\(window)"

            """)
        let agent = try syncagent.start(["--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "agent")
        defer {
            kill(agent.processIdentifier, SIGTERM)
            agent.waitUntilExit()
        }
        #expect(eventually(within: .seconds(10)) { FileManager.default.contents(atPath: destination + "/scheduled.pdf") == scheduled })
        #expect(logind.events.isEmpty, "scheduled work never delays suspend")

        let start = try syncagent.run(["start", "Started", "--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "start")
        #expect(start.status == 0, "\(start.standardError)")
        #expect(eventually(within: .seconds(5)) { logind.events == [Self.lock] }, "\(logind.events)")
        #expect(FileManager.default.contents(atPath: destination + "/started.pdf") == nil, "held while the file transfers")
        #expect(eventually(within: .seconds(10)) { FileManager.default.contents(atPath: destination + "/started.pdf") == started })
        #expect(eventually(within: .seconds(3)) { logind.events == [Self.lock, "release 1"] }, "\(logind.events)")
    }
}
