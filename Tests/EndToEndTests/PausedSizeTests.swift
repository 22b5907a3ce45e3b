import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// `syncagent status` of a file paused while it ran, against the running agent and from the
/// saved state once it stopped: its size shows with its whole ("9.2 MB of 48.0 MB"), not
/// alone (issue 15).
extension AgentTests {
    @Test func aPausedFileShowsItsSizeOfTheWhole() throws {
        _ = try serve("big.pdf", size: 4_000_000)
        try writeManifest("files:\n" + entry("Big", "slow/big.pdf"))
        let agent = try startAgent()
        defer { stop(agent) }
        let part = destination + "/.big.pdf.part"
        #expect(eventually(within: .seconds(10)) { fileSize(part) > 300_000 })
        #expect(try command(["pause", "big"]).status == 0)
        let paused = try #require(try status(of: "Big"))
        #expect(paused.state == .paused)
        #expect(paused.bytesExpected == 4_000_000)
        let table = try command(["status"])
        #expect(table.standardOutput.contains(" of 4.0 MB"), "\(table.standardOutput)")

        // With no agent, the saved state knows the whole too.
        stop(agent)
        let saved = try command(["status"])
        #expect(saved.standardOutput.hasPrefix("The agent is not running; this is the saved state."), "\(saved.standardOutput)")
        #expect(saved.standardOutput.contains(" of 4.0 MB"), "\(saved.standardOutput)")
    }
}
