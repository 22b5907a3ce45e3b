import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Two agents on different state folders at once, each with its own control socket: `status
/// --state-dir X` talks to X's agent, however X is spelled, and one agent's exit leaves the
/// other's socket alone (issue 15).
extension AgentTests {
    @Test func twoAgentsOnDifferentStateFoldersEachAnswerForTheirOwn() throws {
        _ = try serve("a.pdf", size: 1_000)
        _ = try serve("b.pdf", size: 1_000)
        let second = folder.appending("config/second.yaml")
        try writeManifest("files:\n" + entry("A", "a.pdf"))
        try "destination: \(folder.appending("Other"))\nfiles:\n\(entry("B", "b.pdf"))".write(toFile: second, atomically: true, encoding: .utf8)
        let stateA = folder.appending("state"), stateB = folder.appending("state-b")
        let agentA = try startAgent()
        defer { stop(agentA) }
        let agentB = try syncagent.start(["--manifest", second, "--state-dir", stateB], output: "agent-b")
        defer { stop(agentB) }
        #expect(eventually(within: .seconds(10)) { contents("a.pdf") != nil && FileManager.default.fileExists(atPath: folder.appending("Other/b.pdf")) })

        struct Output: Decodable { var agentRunning: Bool; var files: [FileStatus] }
        func status(_ state: String, manifest: String) throws -> Output {
            let run = try syncagent.run(["status", "--json", "--manifest", manifest, "--state-dir", state], output: "status")
            return try ControlProtocol.decoder().decode(Output.self, from: Data(run.standardOutput.utf8))
        }
        let a = try status(stateA, manifest: manifestPath), b = try status(stateB, manifest: second)
        #expect(a.agentRunning && a.files.map(\.title) == ["A"])
        #expect(b.agentRunning && b.files.map(\.title) == ["B"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: syncagent.environment["XDG_RUNTIME_DIR"]! + "/syncagent").count == 2)

        // Another spelling of B's folder — through a link, with a trailing slash — finds B's agent.
        #expect(symlink(stateB, folder.appending("link-b")) == 0)
        #expect(try status(folder.appending("link-b") + "/", manifest: second).agentRunning)

        stop(agentA)
        #expect(!(try status(stateA, manifest: manifestPath).agentRunning))
        let stillB = try status(stateB, manifest: second)
        #expect(stillB.agentRunning, "A's exit must not take B's socket with it")
        #expect(stillB.files.first?.state == .upToDate)
    }
}
