import ArgumentParser
import Foundation
import SyncAgentKit

/// `--manifest` and `--state-dir`, shared by every command.
struct LocationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The manifest to use.", discussion: "Default: $XDG_CONFIG_HOME/syncagent/manifest.yaml, created from the default manifest on first run.", valueName: "file"))
    var manifest: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("The folder for saved state.", discussion: "Default: $XDG_STATE_HOME/syncagent.", valueName: "dir"))
    var stateDirectory: String?

    /// The paths this run uses, defaults filled in from the XDG directories.
    func resolve() -> Locations {
        let directories = XDGDirectories(environment: ProcessInfo.processInfo.environment) {
            try? String(contentsOfFile: $0, encoding: .utf8)
        }
        let workingDirectory = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : workingDirectory + "/" + path }
        return Locations(
            directories: directories,
            manifest: manifest ?? directories.manifest,
            manifestIsDefault: manifest == nil,
            stateDirectory: stateDirectory.map(absolute) ?? directories.state,
            stateIsDefault: stateDirectory == nil,
            runtimeDirectory: ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        )
    }
}

/// Where one run reads and writes.
struct Locations {
    var directories: XDGDirectories
    /// As the user gave it (relative to the working folder) or the absolute default; errors
    /// name it the same way.
    var manifest: String
    /// Whether ``manifest`` is the default one, which is created on first run.
    var manifestIsDefault: Bool
    var stateDirectory: String
    /// Whether ``stateDirectory`` is the default one.
    var stateIsDefault: Bool
    /// `$XDG_RUNTIME_DIR`, where the session keeps sockets.
    var runtimeDirectory: String?

    /// Where the agent working on ``stateDirectory`` listens: `$XDG_RUNTIME_DIR/syncagent/
    /// control.sock` for the default state, a name derived from the state folder for another
    /// (so agents on different states, as in tests, never share a socket), and the state
    /// folder itself when the session has no runtime folder.
    var controlSocketPath: String {
        guard let runtimeDirectory else { return stateDirectory + "/control.sock" }
        let name = stateIsDefault ? "control.sock" : "control-\(fnv1a(stateDirectory)).sock"
        return runtimeDirectory + "/syncagent/" + name
    }
}

/// A short, stable hex digest of a string (64-bit FNV-1a), for file names.
private func fnv1a(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
