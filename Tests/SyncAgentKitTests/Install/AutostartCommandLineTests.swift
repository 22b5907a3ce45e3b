import Testing
@testable import SyncAgentKit

/// Paths in `ExecStart=`, `Exec=` and `TryExec=`: plain ones stay plain, others are quoted
/// and escaped by each format's rules, and read back to the same path.
struct AutostartCommandLineTests {
    @Test func aPlainPathIsWrittenAsItIs() {
        #expect(AutostartCommandLine.systemdExec("/usr/bin/syncagent") == "/usr/bin/syncagent")
        #expect(AutostartCommandLine.desktopExec("/usr/bin/syncagent") == "/usr/bin/syncagent")
        #expect(AutostartCommandLine.desktopString("/usr/bin/syncagent") == "/usr/bin/syncagent")
    }

    @Test func systemdDoublesSpecifiersAndQuotesSpaces() {
        // systemd expands `%h` in the executable but not `$HOME`.
        #expect(AutostartCommandLine.systemdExec("/opt/100%h/$HOME/syncagent") == "/opt/100%%h/$HOME/syncagent")
        #expect(AutostartCommandLine.systemdExec("/opt/my tools/syncagent") == #""/opt/my tools/syncagent""#)
    }

    @Test func systemdRefusesQuotesAndBackslashes() {
        #expect(AutostartCommandLine.systemdRefuses(#"/opt/"q"/syncagent"#))
        #expect(AutostartCommandLine.systemdRefuses("/home/o'brien/syncagent"))
        #expect(AutostartCommandLine.systemdRefuses(#"/opt/a\b/syncagent"#))
        #expect(!AutostartCommandLine.systemdRefuses("/opt/odd %h $HOME ;c #(x)/syncagent"))
    }

    @Test func desktopEntriesQuoteReservedCharactersThenEscapeBackslashes() {
        #expect(AutostartCommandLine.desktopExec("/opt/my tools/syncagent") == #""/opt/my tools/syncagent""#)
        #expect(AutostartCommandLine.desktopExec("/opt/100%/syncagent") == "/opt/100%%/syncagent")
        // `$` is escaped inside the quotes (`\$`), and that backslash is escaped again as a
        // desktop-entry string (`\\$`).
        #expect(AutostartCommandLine.desktopExec("/opt/$x/syncagent") == #""/opt/\\$x/syncagent""#)
        #expect(AutostartCommandLine.desktopExec(#"/opt/a\b/syncagent"#) == #""/opt/a\\\\b/syncagent""#)
        #expect(AutostartCommandLine.desktopString(#"/opt/a\b/syncagent"#) == #"/opt/a\\b/syncagent"#)
    }

    @Test(arguments: ["/usr/bin/syncagent", "/opt/my tools/syncagent", "/opt/odd %h $HOME ;c #(x)/syncagent", "/opt/déjà vu/syncagent", "/opt/100%%/syncagent"])
    func everyPathSystemdAcceptsReadsBackAsWritten(path: String) {
        #expect(AutostartCommandLine.path(fromSystemdExec: AutostartCommandLine.systemdExec(path)) == path)
    }

    @Test(arguments: [
        "/usr/bin/syncagent", "/opt/my tools/syncagent", #"/opt/odd %h $HOME "q" 'a' \b;c #(x)/syncagent"#,
        "/opt/déjà vu/syncagent", "/opt/100%%/syncagent",
    ])
    func everyPathReadsBackFromADesktopEntryAsWritten(path: String) {
        #expect(AutostartCommandLine.path(fromDesktopExec: AutostartCommandLine.desktopExec(path)) == path)
    }

    @Test func controlCharactersAreFound() {
        #expect(AutostartCommandLine.unsupportedCharacter(in: "/opt/a\nb") == "\n")
        #expect(AutostartCommandLine.unsupportedCharacter(in: "/opt/a\tb") == "\t")
        #expect(AutostartCommandLine.unsupportedCharacter(in: "/opt/a\u{7f}b") == "\u{7f}")
        #expect(AutostartCommandLine.unsupportedCharacter(in: "/opt/déjà vu") == nil)
    }
}
