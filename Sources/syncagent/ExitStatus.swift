/// The exit codes syncagent documents (README, `--help`).
enum ExitStatus: Int32 {
    /// Every file is in place, but those the user paused or stopped.
    case success = 0
    /// Some files could not be brought up to date.
    case someFailed = 1
    /// The manifest or the command line is wrong; nothing was changed.
    case usage = 2
    /// The state database or a folder syncagent needs cannot be used.
    case environment = 3
    /// Another agent of this user is running (and `--once` would compete with it).
    case alreadyRunning = 4
    /// A command for the running agent found none (`pause`, `resume`, `stop`, `start`).
    case agentNotRunning = 5
    /// `--once` had nothing to do: every file and feed is paused or stopped (as `reset` leaves them).
    case held = 6
    /// Ctrl-C (SIGINT) or SIGTERM ended `--once`; partial downloads are kept.
    case interrupted = 130
}

/// Ends a command with a message for stderr and a documented exit code.
struct CommandFailure: Error {
    let message: String
    let exitCode: ExitStatus

    init(_ message: String, exitCode: ExitStatus) {
        self.message = message
        self.exitCode = exitCode
    }
}
