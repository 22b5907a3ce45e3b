import Foundation
import Testing
import TestSupport

/// Crash safety: the built binary killed with SIGKILL at random moments of a batch, twenty
/// times in a row, alternately as the login agent and as `syncagent --once`. Whatever the
/// moment, a file under its own name is always whole and right, the state always loads, and
/// once a run is let finish every file is byte-identical with no `.part` left behind.
@Suite(.serialized)
struct CrashLoopTests {
    let server: NginxServer
    let systemBus: PrivateSystemBus
    let networkManager: FakeSystemService
    let upower: FakeSystemService
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    /// Sizes around the edges that matter: empty, one byte, the smallest partial worth
    /// resuming (1 MiB) and either side of it, and files that take several runs.
    static let sizes = [0, 1, 999, 65_536, 1_048_575, 1_048_576, 1_048_577, 2_500_000, 6_000_000]

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 2m; rewrite ^/slow/(.*)$ /$1 break; }")
        systemBus = try PrivateSystemBus()
        networkManager = try FakeSystemService.networkManager(on: systemBus)
        upower = try FakeSystemService.upower(onBattery: false, on: systemBus)
        folder = try TemporaryDirectory(prefix: "crash")
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["HOME"] = folder.appending("home")
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var destination: String { folder.appending("Files") }
    var locations: [String] { ["--manifest", manifestPath, "--state-dir", folder.appending("state")] }

    /// The files that are under their own name now and differ from what the server has.
    func wrongFiles(_ expected: [String: Data]) -> [String] {
        expected.keys.sorted().filter { name in
            guard let data = FileManager.default.contents(atPath: destination + "/" + name) else { return false }
            return data != expected[name]
        }
    }

    func missingFiles(_ expected: [String: Data]) -> [String] {
        expected.keys.sorted().filter { FileManager.default.contents(atPath: destination + "/" + $0) != expected[$0] }
    }

    func partials() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).filter { $0.hasSuffix(".part") }
    }

    @Test func killedTwentyTimesMidBatchEveryFileEndsWholeAndTheStateAlwaysLoads() throws {
        var expected: [String: Data] = [:]
        var manifest = "destination: \(destination)\nnotify: false\nlimits: { concurrent: 4, per_host: 4 }\nfiles:\n"
        for (index, size) in Self.sizes.enumerated() {
            let name = "file-\(index).bin"
            let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: size)
            try server.serve(name, data)
            expected[name] = data
            manifest += "  - url: \(server.url("slow/" + name))\n"
        }
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)

        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let arguments = round.isMultiple(of: 2) ? locations : ["--once"] + locations
            let process = try syncagent.start(arguments)
            usleep(UInt32.random(in: 50_000...1_200_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            #expect(wrongFiles(expected).isEmpty, "round \(round): \(wrongFiles(expected)) in place but not whole")
            let status = try syncagent.run(["status"] + locations)
            #expect(status.status == 0, "round \(round): the state did not load: \(status.standardError)")
        }

        let last = try syncagent.start(locations)
        let finished = eventually(within: .seconds(60)) { missingFiles(expected).isEmpty }
        kill(last.processIdentifier, SIGTERM)
        last.waitUntilExit()
        #expect(finished, "never finished: \(missingFiles(expected))")
        #expect(partials().isEmpty, "\(partials())")
        let status = try syncagent.run(["status"] + locations)
        #expect(status.status == 0)
        #expect(!status.standardOutput.contains("not downloaded yet") && !status.standardOutput.contains("failed"), "\(status.standardOutput)")

        // Kills mid-file were resumed, and every continued request asked for the rest of a
        // file, never for bytes it had.
        #expect(server.requests().contains { $0.status == 206 })
        for request in server.requests() where request.status == 206 {
            #expect(request.range.hasPrefix("bytes=") && request.range.hasSuffix("-"), "\(request.range)")
        }
    }
}
