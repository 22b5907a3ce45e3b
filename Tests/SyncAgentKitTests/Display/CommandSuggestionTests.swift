import Testing
@testable import SyncAgentKit

struct CommandSuggestionTests {
    private let commands = ["check", "status", "pause", "resume", "stop", "start", "reset", "install", "uninstall", "help"]

    @Test func aTypoGetsTheCommandMeant() {
        #expect(CommandSuggestion.closest(to: "paus", among: commands) == "pause")
        #expect(CommandSuggestion.closest(to: "stauts", among: commands) == "status")
        #expect(CommandSuggestion.closest(to: "Resmue", among: commands) == "resume")
        #expect(CommandSuggestion.closest(to: "unins", among: commands) == "uninstall")
    }

    @Test func nothingCloseGetsTheList() {
        #expect(CommandSuggestion.closest(to: "frobnicate", among: commands) == nil)
        #expect(CommandSuggestion.message(for: "frobnicate", commands: ["check", "status"])
            == "Unknown command 'frobnicate'. The commands are: check, status.")
        #expect(CommandSuggestion.message(for: "paus", commands: commands) == "Unknown command 'paus'. Did you mean 'pause'?")
    }
}
