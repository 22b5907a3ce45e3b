import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// `syncagent status`, `pause`, `resume`, `stop`, `start` and `reset` against the running agent,
/// and what its control socket does with requests it must refuse.
extension AgentTests {
    /// Runs a command for the agent on this test's manifest and state.
    func command(_ arguments: [String]) throws -> SyncAgentProcess.Run {
        try syncagent.run(arguments + ["--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "command")
    }

    func status() throws -> [FileStatus] {
        let run = try command(["status", "--json"])
        struct Output: Decodable { var agentRunning: Bool; var files: [FileStatus] }
        return try ControlProtocol.decoder().decode(Output.self, from: Data(run.standardOutput.utf8)).files
    }

    func status(of title: String) throws -> FileStatus? {
        try status().first { $0.title == title }
    }

    /// The agent's control socket for this test's state.
    func socketPath() throws -> String {
        let runtime = try #require(syncagent.environment["XDG_RUNTIME_DIR"])
        let sockets = try FileManager.default.contentsOfDirectory(atPath: runtime + "/syncagent")
        return runtime + "/syncagent/" + (try #require(sockets.first { $0.hasSuffix(".sock") }))
    }

    @Test func statusShowsProgressAndPauseResumeAndStopDoWhatTheySay() throws {
        let one = try serve("one.pdf", size: 4_000_000)
        _ = try serve("two.pdf", size: 4_000_000)
        try writeManifest("files:\n" + entry("Big One", "slow/one.pdf") + entry("Big Two", "slow/two.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        let partOne = destination + "/.one.pdf.part", partTwo = destination + "/.two.pdf.part"
        #expect(eventually(within: .seconds(10)) { fileSize(partOne) > 300_000 && fileSize(partTwo) > 300_000 })

        let first = try #require(try status(of: "Big One"))
        #expect(first.state == .downloading)
        // nginx's limit_rate sends in bursts: wait for the next one rather than a fixed time.
        var later = first
        #expect(eventually(within: .seconds(4)) {
            later = (try? status(of: "Big One")) ?? nil ?? first
            return (later.bytesReceived ?? 0) > (first.bytesReceived ?? 0) && later.bytesPerSecond != nil
        })
        #expect(later.bytesExpected == 4_000_000)
        #expect((later.bytesPerSecond ?? 0) > 0)

        let pause = try command(["pause", "big one"])
        #expect(pause.status == 0)
        #expect(pause.standardOutput == "paused 1 file: Big One (partial downloads are kept)\n")
        let kept = fileSize(partOne)
        usleep(1_000_000)
        #expect(fileSize(partOne) == kept && kept > 0)
        #expect(try status(of: "Big One")?.state == .paused)

        let stop = try command(["stop", "Big T"])
        #expect(stop.standardOutput == "stopped 1 file: Big Two (partial downloads are deleted)\n")
        #expect(!FileManager.default.fileExists(atPath: partTwo))
        #expect(try status(of: "Big Two")?.state == .stopped)

        let resume = try command(["resume", "Big One"])
        #expect(resume.standardOutput == "resumed 1 file: Big One\n")
        #expect(eventually(within: .seconds(10)) { contents("one.pdf") == one })
        let resumed = try #require(server.requests(for: "/slow/one.pdf", count: 2).last)
        #expect(resumed.status == 206 && resumed.range == "bytes=\(kept)-")
        // A stopped file stays stopped.
        #expect(contents("two.pdf") == nil)
    }

    @Test func startIgnoresAClosedWindow() throws {
        let data = try serve("night.pdf", size: 20_000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let hour = calendar.component(.hour, from: Date())
        let window = String(format: "%02d:00-%02d:00", (hour + 2) % 24, (hour + 3) % 24)
        try writeManifest("schedule:\n  window: \"\(window)\"\nfiles:\n" + entry("Night", "night.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { (try? status(of: "Night"))??.state == .waitingForWindow })
        #expect(contents("night.pdf") == nil)

        let start = try command(["start"])
        #expect(start.standardOutput == "starting all 1 file\n")
        #expect(eventually(within: .seconds(5)) { contents("night.pdf") == data })
    }

    @Test func resetDeletesOnlyTheManifestsFilesAndHoldsThemStopped() throws {
        _ = try serve("a.pdf", size: 1_000)
        _ = try serve("b.pdf", size: 2_000)
        try writeManifest("files:\n" + entry("A", "a.pdf") + entry("B", "b.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(10)) { contents("a.pdf") != nil && contents("b.pdf") != nil })
        try Data("mine".utf8).write(to: URL(fileURLWithPath: destination + "/notes.txt"))

        let reset = try command(["reset", "--yes"])
        #expect(reset.status == 0)
        #expect(reset.standardOutput == "reset: deleted 2 files and forgot the saved state; `syncagent start` downloads them again\n")
        #expect(contents("a.pdf") == nil && contents("b.pdf") == nil)
        #expect(contents("notes.txt") == Data("mine".utf8))
        #expect(try status().map(\.state) == [.stopped, .stopped])
        usleep(500_000)
        #expect(contents("a.pdf") == nil)
    }

    @Test func resetAsksFirstAndRefusesWithoutATerminalOrYes() throws {
        _ = try serve("a.pdf", size: 1_000)
        try writeManifest("files:\n" + entry("A", "a.pdf"))
        #expect(try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")]).status == 0)
        let refused = try command(["reset"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("reset deletes files; run it with --yes to confirm"))
        #expect(contents("a.pdf") != nil)
        // Without an agent, reset works on the saved state directly.
        #expect(try command(["reset", "--yes"]).status == 0)
        #expect(contents("a.pdf") == nil)
    }

    @Test func commandsWithoutAnAgentSaySoAndStatusShowsTheSavedState() throws {
        _ = try serve("a.pdf", size: 1_000)
        try writeManifest("files:\n" + entry("A", "a.pdf"))
        #expect(try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")]).status == 0)
        let pause = try command(["pause"])
        #expect(pause.status == 5)
        #expect(pause.standardError == "syncagent: the agent is not running; marked paused all 1 file in the saved state, "
            + "which the agent follows when it starts (`syncagent`, or at every login: `syncagent install`)\n")
        let once = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")])
        #expect(once.status == 6)
        #expect(once.standardError.contains("nothing to do: the 1 file of the manifest is paused; `syncagent resume` continues it"))
        #expect(server.requests(for: "/a.pdf", count: 1).count == 1)
        #expect(try command(["start", "a"]).status == 5)
        #expect(try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")]).status == 0)
        #expect(server.requests(for: "/a.pdf", count: 2).count == 2)
        let status = try command(["status"])
        #expect(status.status == 0)
        #expect(status.standardOutput.hasPrefix("The agent is not running; this is the saved state.\nA  up to date        checked just now, 1.0 KB"))
    }

    @Test func anUnknownTitleIsAnErrorThatListsCloseMatches() throws {
        try writeManifest("files:\n" + entry("Networking Overview", "n.pdf") + entry("AV Foundation", "av.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        let run = try command(["pause", "Netwrking"])
        #expect(run.status == 2)
        #expect(run.standardError == "syncagent: no file is titled \"Netwrking\"; did you mean \"Networking Overview\"?\n")
    }

    @Test func badRequestsGetAnErrorAndTheAgentCarriesOn() throws {
        try writeManifest("files: []\n")
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        let path = try socketPath()
        #expect(try rawExchange(path, Array("hello agent\n".utf8)).contains("\"ok\":false"))
        #expect(try rawExchange(path, Array("{\"version\":99,\"command\":\"status\"}\n".utf8))
            .contains("protocol version 99 is not supported; this agent speaks version 1"))
        #expect(try rawExchange(path, Array("{\"version\":1,\"command\":\"explode\"}\n".utf8))
            .contains("the request is not one this agent understands"))
        #expect(try rawExchange(path, [UInt8](repeating: UInt8(ascii: "x"), count: 200_000))
            .contains("the request is longer than 65536 bytes"))
        // Silence, then hanging up, is not an answer either; the agent is still there after all of it.
        #expect(try rawExchange(path, []).isEmpty)
        #expect(agent.isRunning)
        #expect(try command(["status"]).status == 0)
    }

    @Test func anotherUsersConnectionIsRefused() throws {
        try #require(getuid() == 0, "switching to another user needs root; the uid check is otherwise untestable here")
        try writeManifest("files: []\n")
        let agent = try startAgent()
        defer { stop(agent) }
        #expect(eventually(within: .seconds(5)) { agentLog().contains("started") })
        let path = try socketPath()
        // Open the folder and the socket to everyone, so only the agent's own check stands.
        chmod(splitFolder(path), 0o777)
        chmod(splitFolder(splitFolder(path)), 0o777)
        chmod(path, 0o666)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        client.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            try: s.sendall(b'{"version":1,"command":"status","titles":[]}\\n')
            except BrokenPipeError: pass  # the agent answers a stranger at once, and hangs up
            print(s.makefile().read())
            """, path]
        let output = Pipe(), errors = Pipe()
        client.standardOutput = output
        client.standardError = errors
        try client.run()
        client.waitUntilExit()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(answer.contains("permission denied: the agent answers only its own user"), "\(problem)")
        #expect(!answer.contains("files"))
    }
}

/// Sends raw bytes to a Unix socket, half-closes, and returns everything it answers.
func rawExchange(_ path: String, _ bytes: [UInt8]) throws -> String {
    let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(connection) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw TestSupportError("cannot connect to \(path)") }
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { break }
        sent += count
    }
    shutdown(connection, Int32(SHUT_WR))
    var answer = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        answer += chunk[..<count]
    }
    return String(decoding: answer, as: UTF8.self)
}

func splitFolder(_ path: String) -> String {
    (path as NSString).deletingLastPathComponent
}
