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
            stateDirectory: stateDirectory.map(absolute) ?? directories.state
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
}
