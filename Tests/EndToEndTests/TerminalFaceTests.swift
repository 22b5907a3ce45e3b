import Foundation
import Testing
import TestSupport

/// The terminal face of the built binary (issue 15): colour and symbols by the usual rules,
/// the overall line and the summary's folder, `--quiet`, `--verbose` and `--no-notify`, the
/// width of `status`, redraws on SIGWINCH, "did you mean" for commands, and what `--once`
/// says when every file is held. Run against nginx on 127.0.0.1, on a pseudo-terminal where
/// a terminal is what is tested.
@Suite(.serialized)
struct TerminalFaceTests {
    let server: NginxServer
    let bus: NotificationBus
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 200k; rewrite ^/slow/(.*)$ /$1 break; }")
        bus = try NotificationBus()
        folder = try TemporaryDirectory(prefix: "terminal-face")
        syncagent = try SyncAgentProcess(environment: Self.environment(bus: bus, folder: folder), folder: folder)
    }

    /// A clean environment: a home in the test's folder, a UTF-8 locale and a colour terminal
    /// unless `changes` say otherwise.
    func environment(_ changes: [String: String?] = [:]) -> [String: String] {
        Self.environment(bus: bus, folder: folder, changes: changes)
    }

    static func environment(bus: NotificationBus, folder: TemporaryDirectory, changes: [String: String?] = [:]) -> [String: String] {
        var environment = SyncAgentProcess.homeEnvironment(bus.clientEnvironment, in: folder)
        environment["LANG"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"
        // What the test runner was started with must not decide: these tests set their own.
        for name in ["NO_COLOR", "LC_ALL", "LC_CTYPE", "COLUMNS"] { environment[name] = nil }
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var locationArguments: [String] { ["--manifest", manifestPath, "--state-dir", folder.appending("state")] }
    var destination: String { folder.appending("home/Guides") }

    /// Serves `a.pdf` (and a slow `big.pdf` when asked) and lists them with a missing file.
    func writeManifest(slow: Bool = false, missing: Bool = true) throws {
        try server.serve("a.pdf", Data(repeating: 7, count: 100_000))
        var text = "destination: ~/Guides\nfiles:\n  - title: Guide A\n    url: \(server.url("a.pdf"))\n"
        if slow {
            try server.serve("big.pdf", Data(repeating: 8, count: 3_000_000))
            text += "  - title: Big Guide\n    url: \(server.url("slow/big.pdf"))\n"
        }
        if missing { text += "  - title: Gone Guide\n    url: \(server.url("gone.pdf"))\n" }
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    /// Runs `syncagent arguments…` on a terminal of `columns` × 30 to its end; its output
    /// as the terminal got it, and its exit status.
    func onTerminal(
        _ arguments: [String], columns: Int = 100, environment changes: [String: String?] = [:]
    ) throws -> (output: String, status: Int32) {
        let terminal = try PseudoTerminal(columns: columns, lines: 30)
        let process = try terminal.start(
            syncagent.executable, arguments, environment: environment(changes), errorFile: folder.appending("terminal.err")
        )
        process.waitUntilExit()
        return (terminal.waitForEnd(), process.terminationStatus)
    }

    // MARK: 1. Colour and symbols

    @Test func aTerminalIsColouredAndGetsUnicodeSymbols() throws {
        try writeManifest()
        let run = try onTerminal(["--once"] + locationArguments)
        #expect(run.status == 1)
        #expect(run.output.contains("\u{1B}[32m✓\u{1B}[0m Guide A"), "\(run.output)")
        #expect(run.output.contains("\u{1B}[31m✗\u{1B}[0m Gone Guide"), "\(run.output)")
    }

    @Test(arguments: [["NO_COLOR": "1"], ["NO_COLOR": ""], ["TERM": "dumb"]])
    func noColourWithNoColorOrADumbTerminal(changes: [String: String]) throws {
        try writeManifest()
        let run = try onTerminal(["--once"] + locationArguments, environment: changes)
        #expect(run.status == 1)
        // A foreground colour (ESC [ 3x m), not any "ESC [ 3": the board moves the cursor up
        // three lines with ESC [ 3 A when a redraw happens mid-batch on a slow machine.
        #expect(run.output.firstMatch(of: /\x{1B}\[3[0-9]m/) == nil, "\(run.output)")
        #expect(run.output.contains("Guide A"))
    }

    @Test func colorNeverOnATerminalAndAlwaysIntoAPipe() throws {
        try writeManifest()
        let never = try onTerminal(["--once", "--color", "never"] + locationArguments)
        #expect(!never.output.contains("\u{1B}[3"), "\(never.output)")
        #expect(never.output.contains("✓ Guide A"))
        let piped = try syncagent.run(["--once", "--color", "always"] + locationArguments)
        #expect(piped.standardOutput.contains("\u{1B}[32mdone    \u{1B}[0m Guide A") || piped.standardOutput.contains("\u{1B}[2munchanged\u{1B}[0m Guide A"), "\(piped.standardOutput)")
        let plain = try syncagent.run(["--once"] + locationArguments)
        #expect(!plain.standardOutput.contains("\u{1B}"), "\(plain.standardOutput)")
    }

    @Test func theCLocaleGetsASCIIOnly() throws {
        try writeManifest()
        let run = try onTerminal(["--once"] + locationArguments, environment: ["LC_ALL": "C"])
        #expect(run.status == 1)
        #expect(run.output.unicodeScalars.allSatisfy { $0.isASCII }, "\(run.output)")
        #expect(run.output.contains("+\u{1B}[0m Guide A") && run.output.contains("!\u{1B}[0m Gone Guide"), "\(run.output)")
    }

    @Test func colorIsOnlyForOnceAndStatus() throws {
        try writeManifest()
        let run = try syncagent.run(["--color", "always"] + locationArguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains("--color goes with --once"), "\(run.standardError)")
        let wrong = try syncagent.run(["--once", "--color", "sometimes"] + locationArguments)
        #expect(wrong.status == 2)
    }

    // MARK: 2. The overall line and the summary

    @Test func theBoardEndsWithAnOverallLineAndTheSummarySaysWhere() throws {
        try writeManifest(slow: true)
        let run = try onTerminal(["--once"] + locationArguments)
        #expect(run.status == 1)
        #expect(run.output.contains(" of 3 files"), "\(run.output)")
        #expect(run.output.contains("3.0 MB of 3.1 MB") || run.output.contains("of 3.1 MB"), "\(run.output)")
        #expect(run.output.contains("3 files in ~/Guides: 2 downloaded (3.1 MB in "), "\(run.output)")
        #expect(run.output.contains(", 1 failed"))
    }

    @Test func plainLinesEndWithTheSummaryAndItsFolder() throws {
        try writeManifest()
        let run = try syncagent.run(["--once"] + locationArguments)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.last?.hasPrefix("2 files in ~/Guides: 1 downloaded (100 KB in ") == true, "\(run.standardOutput)")
        #expect(lines.last?.hasSuffix("), 1 failed") == true, "\(run.standardOutput)")
    }

    // MARK: 3. Flags

    @Test func quietShowsOnlyFailuresOnStandardError() throws {
        try writeManifest()
        let run = try syncagent.run(["--once", "-q"] + locationArguments)
        #expect(run.status == 1)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "syncagent: failed: Gone Guide: the server answered 404 Not Found (127.0.0.1:\(server.port))\n")
    }

    @Test func verboseShowsEachURL() throws {
        try writeManifest()
        let run = try syncagent.run(["--once", "--verbose"] + locationArguments)
        #expect(run.standardOutput.contains("Guide A  100 KB"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains(" from \(server.url("a.pdf"))"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("failed   Gone Guide: the server answered 404 Not Found (\(server.url("gone.pdf")))"))
    }

    @Test func thePlainFailedLineNamesTheHost() throws {
        try writeManifest()
        let run = try syncagent.run(["--once"] + locationArguments)
        #expect(run.standardOutput.contains("failed   Gone Guide: the server answered 404 Not Found (127.0.0.1:\(server.port))\n"), "\(run.standardOutput)")
    }

    @Test func noNotifyShowsNoNotification() throws {
        try writeManifest()
        #expect(try syncagent.run(["--once", "--no-notify"] + locationArguments).status == 1)
        #expect(try bus.recordedNotifications().isEmpty)
        #expect(try syncagent.run(["--once"] + locationArguments).status == 1)
        #expect(try bus.recordedNotifications().count == 1)
    }

    @Test func quietAndVerboseContradictEachOther() throws {
        try writeManifest()
        let run = try syncagent.run(["--once", "-q", "-v"] + locationArguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains("--quiet and --verbose"))
    }

    // MARK: 4. Width and resizes

    @Test(arguments: [40, 60, 120])
    func statusFitsTheTerminal(columns: Int) throws {
        try writeManifest()
        _ = try syncagent.run(["--once"] + locationArguments)
        let run = try onTerminal(["status"] + locationArguments, columns: columns, environment: ["NO_COLOR": "1"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        for line in lines {
            #expect(line.count <= columns, "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix(columns < 60 ? "Gone Gu…  failed" : "Gone Guide  failed") }, "\(lines)")
    }

    @Test func statusWatchRedrawsInPlaceAtTheWindowsWidth() throws {
        try writeManifest()
        _ = try syncagent.run(["--once"] + locationArguments)
        let terminal = try PseudoTerminal(columns: 120, lines: 30)
        let process = try terminal.start(
            syncagent.executable, ["status", "--watch"] + locationArguments, environment: environment(["NO_COLOR": "1"]),
            errorFile: folder.appending("watch.err")
        )
        #expect(terminal.waitFor("Gone Guide  failed"))
        terminal.resize(columns: 45, lines: 30)
        #expect(terminal.waitFor("Gone Gu…  failed"), "\(terminal.output)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let frames = terminal.waitForEnd().components(separatedBy: "\u{1B}[H").dropFirst()
        #expect(frames.count >= 2)
        // Never the whole screen cleared again after the first frame: no flicker.
        #expect(frames.dropFirst().allSatisfy { !$0.contains("\u{1B}[2J") })
        let last = try #require(frames.last(where: { $0.contains("Gone Gu…") }))
        for line in last.components(separatedBy: "\r\n") {
            #expect(line.components(separatedBy: "\u{1B}[").first!.count <= 45, "\(line)")
        }
    }

    @Test func aShrunkWindowIsRedrawnAtOnceOverEveryRowTheOldFrameTook() throws {
        try writeManifest(slow: true, missing: false)
        let terminal = try PseudoTerminal(columns: 120, lines: 30)
        let process = try terminal.start(
            syncagent.executable, ["--once", "--color", "never"] + locationArguments, environment: environment(),
            errorFile: folder.appending("terminal.err")
        )
        #expect(terminal.waitFor("Big Guide "))
        #expect(terminal.waitFor("\u{1B}[2A"), "Guide A is done: Big Guide's row and the overall line")
        let before = terminal.output.count
        terminal.resize(columns: 40, lines: 30)
        kill(process.processIdentifier, SIGWINCH)
        // Big Guide's row was 119 columns wide: at 40 it takes 3 rows, and the overall line
        // 1 or 2, so the first redraw backs up over 4 or 5 rows, not 2.
        var backedUp: Int?
        #expect(eventually(within: .seconds(10)) {
            let after = terminal.output.dropFirst(before)
            guard let up = after.range(of: "\r\u{1B}[") else { return false }
            backedUp = Int(after[up.upperBound...].prefix { $0.isNumber })
            return true
        })
        #expect(backedUp == 4 || backedUp == 5, "\(String(describing: backedUp))")
        process.waitUntilExit()
        let after = String(terminal.waitForEnd().dropFirst(before))
        let rows = after.components(separatedBy: "\r\n").filter { $0.contains("Big Guide ") && $0.contains("[") }
        #expect(!rows.isEmpty)
        for row in rows {
            let start = try #require(row.range(of: "Big Guide "))
            let visible = row[start.lowerBound...].components(separatedBy: "\u{1B}[K")[0]
            #expect(visible.count < 40, "\(visible)")
        }
        #expect(process.terminationStatus == 0)
    }

    // MARK: 5. Did you mean

    @Test func aMistypedCommandGetsASuggestion() throws {
        let run = try syncagent.run(["paus"])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("Error: Unknown command 'paus'. Did you mean 'pause'?\n"), "\(run.standardError)")
        let located = try syncagent.run(["--manifest", manifestPath, "stauts"])
        #expect(located.standardError.contains("Did you mean 'status'?"), "\(located.standardError)")
    }

    // MARK: 6. Odd states

    @Test func afterResetOnceSaysTheFilesAreStoppedAndExitsWith6() throws {
        try writeManifest(missing: false)
        #expect(try syncagent.run(["--once"] + locationArguments).status == 0)
        #expect(try syncagent.run(["reset", "--yes"] + locationArguments).status == 0)
        let run = try syncagent.run(["--once"] + locationArguments)
        #expect(run.status == 6)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "syncagent: nothing to do: the 1 file of the manifest is stopped (as `syncagent reset` leaves it); "
            + "`syncagent start` releases it, then `syncagent --once` fetches it\n")
        #expect(try syncagent.run(["start"] + locationArguments).status == 5)
        #expect(try syncagent.run(["--once"] + locationArguments).status == 0)
    }

    @Test func resetAsksAboutOneFileInTheSingular() throws {
        try writeManifest(missing: false)
        let terminal = try PseudoTerminal(columns: 200, lines: 30)
        let process = try terminal.start(
            syncagent.executable, ["reset"] + locationArguments, environment: environment(), errorFile: folder.appending("reset.err"), typing: true
        )
        #expect(terminal.waitFor("[y/N] "))
        terminal.type("n\n")
        process.waitUntilExit()
        #expect(terminal.output.contains("Delete the 1 file of the manifest in \(destination) and forget its state? [y/N] "), "\(terminal.output)")
        #expect(process.terminationStatus == 2)
    }

    @Test func aHeldFileAmongOthersIsNamedAndTheOthersDecideTheExitStatus() throws {
        try writeManifest(slow: true, missing: false)
        #expect(try syncagent.run(["pause", "big"] + locationArguments).status == 5)
        let run = try syncagent.run(["--once"] + locationArguments)
        #expect(run.status == 0)
        #expect(run.standardError.contains("left out, as you paused or stopped them: Big Guide (`syncagent start` releases them)"))
        #expect(FileManager.default.fileExists(atPath: destination + "/a.pdf"))
    }
}
