import Foundation

/// A program run to its end, with stdout and stderr captured apart.
public struct ToolRun {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    /// Runs `command[0]` (an absolute path, or a name looked up in /usr/bin and /bin) with
    /// the rest as arguments, and only `environment` plus a plain PATH.
    public init(_ command: [String], environment: [String: String] = [:]) throws {
        let tool = command[0]
        let candidates = tool.hasPrefix("/") ? [tool] : ["/usr/bin/" + tool, "/bin/" + tool]
        guard let executable = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw TestSupportError("\(tool) is not installed; run scripts/install-deps --test")
        }
        let folder = try TemporaryDirectory(prefix: "package-tool")
        let outputPath = folder.appending("stdout")
        let errorPath = folder.appending("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        process.environment = environment.merging(["PATH": "/usr/bin:/bin", "HOME": folder.path]) { given, _ in given }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        status = process.terminationStatus
        standardOutput = try String(contentsOfFile: outputPath, encoding: .utf8)
        standardError = try String(contentsOfFile: errorPath, encoding: .utf8)
    }
}

/// Runs a system tool (`mount`, `ip`…) to its end; throws with its standard error when it fails.
func runTool(_ executable: String, _ arguments: [String]) throws {
    let run = try ToolRun([executable] + arguments)
    guard run.status == 0 else {
        throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) failed: \(run.standardError)")
    }
}
