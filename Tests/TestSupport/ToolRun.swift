import Foundation

/// Runs a system tool (`mount`, `ip`…) to its end; throws with its standard error when it fails.
func runTool(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
    }
}
