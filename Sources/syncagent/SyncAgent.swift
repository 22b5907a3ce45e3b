import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SyncAgentKit

/// The `syncagent` command: the login agent by default, `--once` for one batch now, and the
/// subcommands that inspect it.
@main
struct SyncAgent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncagent",
        abstract: "Keep a folder in step with a list of files on the web.",
        discussion: """
            With no command, syncagent runs as the login agent: it keeps the files of the \
            manifest (by default ~/.config/syncagent/manifest.yaml, created on first run) up to \
            date on their schedules, picks up edits of the manifest as they are saved, and \
            shows one desktop notification per batch. `syncagent install` starts it at login.

            `syncagent --once` brings every file up to date now, with a progress bar per file \
            and an overall line (files, bytes, speed, time left) on a terminal, plain lines \
            otherwise: only what changed is downloaded, and interrupted downloads resume. \
            Colour follows --color, NO_COLOR and TERM=dumb; its symbols are ASCII unless the locale is UTF-8.

            Exit status: 0 every file is in place (but those you paused or stopped), 1 some \
            files failed, 2 the manifest or the command line is wrong, 3 the state or a folder \
            cannot be used, 4 an agent is already running on this state, 5 no agent is running \
            (for pause, resume, stop, start), 6 --once had nothing to do as every file and feed is \
            paused or stopped (after reset), \
            130 interrupted.
            """,
        version: "0.1.0",
        // Each names itself (commandName): a derived name costs every start (CommandNameTests).
        subcommands: [Check.self, Status.self, Pause.self, Resume.self, Stop.self, Start.self, ResetCommand.self, Install.self, Uninstall.self]
    )

    @Flag(name: .long, help: "Download every file of the manifest now, show progress, and exit.")
    var once = false

    @Flag(name: .customLong("dry-run"), help: "With --once: show what would be fetched and why, and change nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "With --once: show only what failed, on standard error.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "With --once: show where each file comes from (its URL), also in failures.")
    var verbose = false

    @Flag(name: .customLong("no-notify"), help: "With --once: show no desktop notification at the end.")
    var noNotify = false

    @Option(name: .customLong("limit-rate"), help: ArgumentHelp(
        "With --once: cap all transfers together at this rate, such as 500KB/s (units \(BandwidthText.units)); without it, --once ignores the manifest's bandwidth.",
        valueName: "rate"))
    var limitRate: String?

    @OptionGroup var display: ColorOption

    @OptionGroup var locations: LocationOptions

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other; give one of them.") }
        if let limitRate, BandwidthText.parse(limitRate) == nil {
            throw ValidationError("--limit-rate takes a rate such as 500KB/s or 2MB/s (units \(BandwidthText.units)), not \"\(limitRate)\".")
        }
        guard !once else { return }
        let onceOnly = [
            (display.color != nil, "--color"), (dryRun, "--dry-run"), (quiet, "--quiet"), (verbose, "--verbose"), (noNotify, "--no-notify"),
            (limitRate != nil, "--limit-rate"),
        ]
        if let (_, name) = onceOnly.first(where: \.0) {
            throw ValidationError("\(name) goes with --once (syncagent --once \(name)); the agent writes only its log.")
        }
    }

    func run() throws {
        if let onceCommandLine {
            try onceCommandLine.run()
        } else {
            try AgentCommand(locations: locations.resolve(), logger: Logger(label: "syncagent")).run()
        }
    }

    /// What `--once` was asked to do, as ``OnceCommandLine/init(arguments:)`` reads the plain
    /// command lines of it without this parser; `nil` without `--once`.
    var onceCommandLine: OnceCommandLine? {
        guard once else { return nil }
        return OnceCommandLine(
            dryRun: dryRun, quiet: quiet, verbose: verbose, noNotify: noNotify, limitRate: limitRate, color: display.color,
            manifest: locations.manifest, stateDirectory: locations.stateDirectory
        )
    }

    /// Parses, runs, and maps every failure to the exit codes documented above.
    static func main() {
        LoggingSystem.bootstrap { _ in StandardErrorLogHandler() }
        // `syncagent status | head` must end quietly, not die of SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        if let shell = completionShellAsked(in: Array(CommandLine.arguments.dropFirst())),
           let script = CompletionScript.script(for: shell, commands: commandNames.filter { $0 != "help" }) {
            FileDescriptorOutput.standardOutput.write(script.hasSuffix("\n") ? script : script + "\n")
            Glibc.exit(0)
        }
        do {
            if let onceCommandLine = OnceCommandLine(arguments: Array(CommandLine.arguments.dropFirst())) {
                try onceCommandLine.run()
                return
            }
            let command: any ParsableCommand
            do {
                command = try parseAsRoot()
            } catch {
                // Only a command line that could not be parsed; `--help` and the completion
                // script also arrive here, as errors that exit with 0.
                if exitCode(for: error) == .validationFailure, let word = unknownCommand(in: Array(CommandLine.arguments.dropFirst())) {
                    let message = CommandSuggestion.message(for: word, commands: commandNames)
                    FileDescriptorOutput.standardError.write("Error: \(message)\n  See 'syncagent --help' for more information.\n")
                    Glibc.exit(ExitStatus.usage.rawValue)
                }
                throw error
            }
            var runnable = command
            try runnable.run()
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { FileDescriptorOutput.standardError.write("syncagent: \(failure.message)\n") }
            Glibc.exit(failure.exitCode.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || code == .validationFailure || error is ValidationError {
                let message = fullMessage(for: error)
                if code == .success {
                    print(message)
                    Glibc.exit(0)
                }
                FileDescriptorOutput.standardError.write(message.isEmpty ? "" : message + "\n")
                Glibc.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }

    /// The commands a user can name: the subcommands and `help`.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// The word given where a command goes, when it names none (`syncagent paus` → "paus"),
    /// skipping options and the values of those that take one; `nil` when the command line
    /// names a command or none at all.
    static func unknownCommand(in arguments: [String]) -> String? {
        let takesValue: Set = ["--manifest", "--state-dir", "--color", "--limit-rate", "--generate-completion-script"]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if takesValue.contains(argument) {
                index += 2
                continue
            }
            if argument.hasPrefix("-") {
                index += 1
                continue
            }
            return commandNames.contains(argument) ? nil : argument
        }
        return nil
    }

    /// The shell named by `--generate-completion-script SHELL` (or `=SHELL`), if asked.
    static func completionShellAsked(in arguments: [String]) -> String? {
        let option = "--generate-completion-script"
        for (index, argument) in arguments.enumerated() {
            if argument == option, index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix(option + "=") { return String(argument.dropFirst(option.count + 1)) }
        }
        return nil
    }
}

/// Asked by CLibraries' start-up code, before `main`: this program starts opening the libraries
/// of a batch of transfers as it starts when its command line looks like one
/// (``SharedLibraryPreload/mayTransfer(arguments:)``). The tests and probes that link
/// CLibraries do not define it, and open nothing ahead.
@_cdecl("syncagent_program_opens_libraries_at_start")
func opensLibrariesAtStart() -> Int32 { 1 }
