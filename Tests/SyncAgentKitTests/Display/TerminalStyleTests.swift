import Testing
@testable import SyncAgentKit

struct TerminalStyleTests {
    @Test func autoColoursOnlyATerminal() {
        #expect(ColorChoice.auto.allowsColor(isTerminal: true, environment: ["TERM": "xterm-256color"]))
        #expect(!ColorChoice.auto.allowsColor(isTerminal: false, environment: ["TERM": "xterm-256color"]))
    }

    @Test func noColorOfAnyValueTurnsAutoOff() {
        #expect(!ColorChoice.auto.allowsColor(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.auto.allowsColor(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!ColorChoice.auto.allowsColor(isTerminal: true, environment: ["NO_COLOR": "0"]))
    }

    @Test func aDumbTerminalGetsNoColour() {
        #expect(!ColorChoice.auto.allowsColor(isTerminal: true, environment: ["TERM": "dumb"]))
    }

    @Test func theCommandLineWinsOverTheEnvironment() {
        #expect(ColorChoice.always.allowsColor(isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.allowsColor(isTerminal: true, environment: ["TERM": "xterm"]))
    }

    @Test func paintWrapsTextInOneColourAndResets() {
        let style = TerminalStyle(colors: true)
        #expect(style.paint("failed", .red) == "\u{1B}[31mfailed\u{1B}[0m")
        #expect(style.paint("", .red) == "")
        #expect(TerminalStyle(colors: false).paint("failed", .red) == "failed")
    }

    @Test func decideTakesSymbolsFromTheLocale() {
        let style = TerminalStyle.decide(.auto, isTerminal: true, environment: ["LC_ALL": "C", "TERM": "xterm"])
        #expect(style == TerminalStyle(colors: true, symbols: .ascii))
    }
}
