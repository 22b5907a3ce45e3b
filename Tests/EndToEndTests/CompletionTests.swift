import Foundation
import Testing
import TestSupport

/// The shell completions of the built binary (issue 15): titles of the manifest in force
/// after `pause`, `resume`, `stop` and `start`, YAML files for `--manifest`, and the commands
/// after `help`, in bash, zsh and fish. bash is run for real on the generated script.
@Suite(.serialized)
struct CompletionTests {
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        folder = try TemporaryDirectory(prefix: "completion")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.appending("home")
        environment["XDG_CONFIG_HOME"] = folder.appending("home/.config")
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
        try """
            destination: \(folder.appending("files"))
            files:
              - title: Scripting Guide
                url: http://127.0.0.1:9/a.pdf
              - title: Script Editor Help
                url: http://127.0.0.1:9/b.pdf
              - title: Networking Overview
                url: http://127.0.0.1:9/c.pdf
            """.write(toFile: folder.appending("guides.yaml"), atomically: true, encoding: .utf8)
    }

    /// What the shell asks the binary for the title being typed, as the generated scripts do.
    func titles(_ command: String, typed: String, manifest: Bool = true) throws -> [String] {
        let words = ["syncagent", command] + (manifest ? ["--manifest", folder.appending("guides.yaml")] : []) + [typed]
        let run = try syncagent.run(["---completion", command, "--", "positional@0", String(words.count - 1), String(typed.count)] + words)
        #expect(run.status == 0, "\(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test(arguments: ["pause", "resume", "stop", "start"])
    func titlesOfTheManifestInForce(command: String) throws {
        #expect(try titles(command, typed: "Sc") == ["Scripting Guide", "Script Editor Help"])
        #expect(try titles(command, typed: "net") == ["Networking Overview"])
        #expect(try titles(command, typed: "").count == 3)
    }

    @Test func noManifestCompletesNothingAndCreatesNone() throws {
        #expect(try titles("pause", typed: "", manifest: false) == [])
        #expect(!FileManager.default.fileExists(atPath: folder.appending("home/.config/syncagent/manifest.yaml")))
    }

    @Test func bashCompletesTitlesCommandsAfterHelpAndYAMLFiles() throws {
        let script = try syncagent.run(["--generate-completion-script", "bash"]).standardOutput
        try script.write(toFile: folder.appending("completion.bash"), atomically: true, encoding: .utf8)
        #expect(script.contains("'!*.@(yaml|yml)'"))
        let binary = URL(fileURLWithPath: syncagent.executable).deletingLastPathComponent().path
        // A non-interactive bash runs the completion function as readline would.
        let driver = """
            source \(folder.appending("completion.bash"))
            complete_line() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
              _syncagent syncagent "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s|' "${COMPREPLY[@]}"; echo; }
            complete_line syncagent help pa
            complete_line syncagent pause --manifest \(folder.appending("guides.yaml")) Scr
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver]
        var environment = syncagent.environment
        environment["PATH"] = binary + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(text)")
        #expect(lines.first == "pause|", "\(text)")
        #expect(lines.last == "Scripting Guide|Script Editor Help|", "\(text)")
    }

    @Test func zshAndFishCompleteTheCommandsAfterHelp() throws {
        let zsh = try syncagent.run(["--generate-completion-script", "zsh"]).standardOutput
        #expect(zsh.contains("'*:subcommands:(check status pause resume stop start reset install uninstall)'"))
        let fish = try syncagent.run(["--generate-completion-script", "fish"]).standardOutput
        #expect(fish.hasSuffix("complete -c 'syncagent' -n '__fish_seen_subcommand_from help' -fa 'check status pause resume stop start reset install uninstall'\n"))
        #expect(fish.contains("---completion pause"))
    }
}
