import Foundation
import TestSupport

/// The built `syncagent` binary, run as a user would, with its output captured in files.
struct SyncAgentProcess {
    /// How a finished run ended.
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var duration: Duration
    }

    let executable: String
    let environment: [String: String]
    let folder: TemporaryDirectory

    init(environment: [String: String], folder: TemporaryDirectory) throws {
        executable = try BuiltProducts.executable(named: "syncagent")
        self.environment = environment
        self.folder = folder
    }

    /// `base` with a home of its own in `folder` (`home`, and its `.config` and `.local/state`
    /// as the XDG folders), so a run never reads or writes the real user's manifest and state.
    static func homeEnvironment(_ base: [String: String], in folder: TemporaryDirectory) -> [String: String] {
        var environment = base
        environment["HOME"] = folder.appending("home")
        environment["XDG_CONFIG_HOME"] = folder.appending("home/.config")
        environment["XDG_STATE_HOME"] = folder.appending("home/.local/state")
        return environment
    }

    /// Runs `syncagent arguments…` to its end. `output` names the files its stdout and stderr
    /// go to (`NAME.out`, `NAME.err`), so a command run beside a running agent keeps its own.
    func run(_ arguments: [String], output: String = "run") throws -> Run {
        let started = ContinuousClock.now
        let process = try start(arguments, output: output)
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOfFile: folder.appending(output + ".out"), encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: folder.appending(output + ".err"), encoding: .utf8)) ?? "",
            duration: ContinuousClock.now - started
        )
    }

    /// Starts `syncagent arguments…` and returns at once; stdout and stderr go to files.
    func start(_ arguments: [String], output: String = "run") throws -> Process {
        _ = FileManager.default.createFile(atPath: folder.appending(output + ".out"), contents: nil)
        _ = FileManager.default.createFile(atPath: folder.appending(output + ".err"), contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: folder.appending(output + ".out"))
        process.standardError = FileHandle(forWritingAtPath: folder.appending(output + ".err"))
        try process.run()
        return process
    }
}
