import FoundationEssentials
import Glibc

/// Runs `systemctl --user …` for the autostart logic.
///
/// A value with the run as a closure, so tests pass one that records the arguments and
/// answers as systemd would: no systemd user instance runs where the tests run.
public struct AutostartSystemctl: Sendable {
    /// How one `systemctl --user` run ended.
    public struct Run: Sendable, Equatable {
        /// The exit status; 0 is success.
        public var status: Int32
        /// What it wrote to stdout.
        public var output: String
        /// What it wrote to stderr.
        public var errorOutput: String

        /// A run that ended with `status`, having written `output` and `errorOutput`.
        public init(status: Int32, output: String = "", errorOutput: String = "") {
            self.status = status
            self.output = output
            self.errorOutput = errorOutput
        }
    }

    /// Runs `systemctl --user` with these arguments (`--user` not included) to its end.
    public let run: @Sendable (_ arguments: [String]) -> Run

    /// A systemctl that runs as `run` says; tests record and answer here.
    public init(run: @escaping @Sendable (_ arguments: [String]) -> Run) {
        self.run = run
    }

    /// The `systemctl` on `PATH` (from `environment`), or `nil` when there is none.
    public static func installed(environment: [String: String]) -> AutostartSystemctl? {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let candidates = folders.map { folder in String(folder) + "/systemctl" }
        guard let executable = candidates.first(where: { path in access(path, X_OK) == 0 }) else { return nil }
        return AutostartSystemctl { arguments in runProcess(executable, ["--user"] + arguments) }
    }

    /// Runs `executable` with stdin from /dev/null and both outputs captured.
    private static func runProcess(_ executable: String, _ arguments: [String]) -> Run {
        do {
            let run = try ProgramRun.run(executable, arguments)
            return Run(status: run.status, output: run.output, errorOutput: run.errorOutput)
        } catch {
            return Run(status: 127, errorOutput: "cannot run \(executable): \(error.reason)")
        }
    }
}
