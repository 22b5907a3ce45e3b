import Foundation
import Testing
import TestSupport

/// The built binary with its stdout and stderr a pipe whose reader has gone away, as in
/// `syncagent --once 2>&1 | head -1` or `syncagent 2>&1 | tee log` and Ctrl-C: the work
/// goes on or ends cleanly, with its state saved, never a crash (SIGILL from
/// `FileHandle.write`, or death by SIGPIPE).
///
/// No session bus, and for the agent no system bus, so each run has warnings to write
/// to the closed stderr.
@Suite(.serialized)
struct ClosedOutputTests {
    let server: NginxServer
    let systemBus: PrivateSystemBus
    let folder: TemporaryDirectory

    init() throws {
        server = try NginxServer()
        systemBus = try PrivateSystemBus()
        folder = try TemporaryDirectory(prefix: "closed-output")
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var destination: String { folder.appending("Guides") }
    var locationArguments: [String] { ["--manifest", manifestPath, "--state-dir", folder.appending("state")] }

    var environment: [String: String] {
        var environment = systemBus.environmentWithoutSystemBus
        environment["HOME"] = folder.appending("home")
        return environment
    }

    func serveGuide() throws -> Data {
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: 300_000)
        try server.serve("a.pdf", data)
        try "destination: \(destination)\nfiles:\n  - title: Guide\n    url: \(server.url("a.pdf"))\n"
            .write(toFile: manifestPath, atomically: true, encoding: .utf8)
        return data
    }

    /// `syncagent arguments…` with stdout and stderr both the write end of `pipe`.
    func start(_ arguments: [String], into pipe: Pipe) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable(named: "syncagent"))
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        return process
    }

    /// A second run, its output in files: "unchanged" and a 304 mean the first saved its state.
    func expectStateSaved() throws {
        let check = try SyncAgentProcess(environment: environment, folder: folder).run(["--once"] + locationArguments)
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("unchanged"), "\(check.standardOutput)")
        #expect(server.requests(for: "/a.pdf", count: 2).map(\.status) == [200, 304])
    }

    @Test func onceWithItsReaderGoneFinishesTheBatchAndExitsZero() throws {
        let data = try serveGuide()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let once = try start(["--once"] + locationArguments, into: pipe)
        once.waitUntilExit()
        #expect(once.terminationReason == .exit)
        #expect(once.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: destination + "/a.pdf") == data)
        try expectStateSaved()
    }

    @Test func theAgentInterruptedAfterItsReaderWentAwayStopsCleanly() throws {
        let data = try serveGuide()
        let pipe = Pipe()
        let agent = try start(locationArguments, into: pipe)
        defer { if agent.isRunning { kill(agent.processIdentifier, SIGKILL) } }
        // Read what `tee` would have shown until the file is in place, then go away as `tee` does on Ctrl-C.
        var shown = ""
        while !shown.contains("Guide: downloaded") {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            shown += String(decoding: chunk, as: UTF8.self)
        }
        #expect(shown.contains("Guide: downloaded"), "\(shown)")
        try pipe.fileHandleForReading.close()
        kill(agent.processIdentifier, SIGINT)
        agent.waitUntilExit()
        #expect(agent.terminationReason == .exit)
        #expect(agent.terminationStatus == 0)
        #expect(FileManager.default.contents(atPath: destination + "/a.pdf") == data)
        try expectStateSaved()
    }

    @Test func statusWatchEndsWhenItsReaderGoesAway() throws {
        _ = try serveGuide()
        let pipe = Pipe()
        let watch = try start(["status", "--watch"] + locationArguments, into: pipe)
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        // Read the first screen, as `head -1` does, then go away.
        #expect(!pipe.fileHandleForReading.availableData.isEmpty)
        try pipe.fileHandleForReading.close()
        let deadline = Date().addingTimeInterval(10)
        while watch.isRunning, Date() < deadline { usleep(20_000) }
        #expect(!watch.isRunning, "status --watch went on redrawing for nobody")
        watch.waitUntilExit()
        #expect(watch.terminationReason == .exit)
    }
}
