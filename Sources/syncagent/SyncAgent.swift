import ArgumentParser
import Foundation
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

            `syncagent --once` brings every file up to date now, with a progress bar per file: \
            only what changed is downloaded, and interrupted downloads resume.

            Exit status: 0 every file is in place, 1 some files failed, 2 the manifest or the \
            command line is wrong, 3 the state or a folder cannot be used, 4 an agent is \
            already running on this state, 5 no agent is running (for pause, resume, stop, \
            start), 130 interrupted.
            """,
        version: "0.1.0",
        subcommands: [Check.self, Status.self, Pause.self, Resume.self, Stop.self, Start.self, ResetCommand.self, Install.self, Uninstall.self]
    )

    @Flag(name: .long, help: "Download every file of the manifest now, show progress, and exit.")
    var once = false

    @OptionGroup var locations: LocationOptions

    func run() throws {
        let logger = Logger(label: "syncagent")
        if once {
            try OnceCommand(locations: locations.resolve(), logger: logger).run()
        } else {
            try AgentCommand(locations: locations.resolve(), logger: logger).run()
        }
    }

    /// Parses, runs, and maps every failure to the exit codes documented above.
    static func main() {
        LoggingSystem.bootstrap { _ in StandardErrorLogHandler() }
        // `syncagent status | head` must end quietly, not die of SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { FileDescriptorOutput.standardError.write("syncagent: \(failure.message)\n") }
            Foundation.exit(failure.exitCode.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || code == .validationFailure || error is ValidationError {
                let message = fullMessage(for: error)
                if code == .success {
                    print(message)
                    Foundation.exit(0)
                }
                FileDescriptorOutput.standardError.write(message.isEmpty ? "" : message + "\n")
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}
