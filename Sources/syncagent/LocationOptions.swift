import ArgumentParser
import FoundationEssentials
import SyncAgentKit

/// `--manifest` and `--state-dir`, shared by every command.
struct LocationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The manifest to use.", discussion: "Default: $XDG_CONFIG_HOME/syncagent/manifest.yaml, created from the default manifest on first run.", valueName: "file"), completion: .file(extensions: ["yaml", "yml"]))
    var manifest: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("The folder for saved state.", discussion: "Default: $XDG_STATE_HOME/syncagent.", valueName: "dir"), completion: .directory)
    var stateDirectory: String?

    /// The paths this run uses, defaults filled in from the XDG directories of `environment`.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> Locations {
        Self.resolve(manifest: manifest, stateDirectory: stateDirectory, environment: environment)
    }

    /// The paths of a run given `--manifest` and `--state-dir` (`nil`: not given), defaults
    /// filled in from the XDG directories of `environment`.
    static func resolve(manifest: String?, stateDirectory: String?, environment: [String: String]) -> Locations {
        Locations(
            manifest: manifest, stateDirectory: stateDirectory, environment: environment,
            workingDirectory: FileManager.default.currentDirectoryPath, resolveLinks: FileSystemPath.resolvingLinks
        ) { FileSystemPath.text(ofFile: $0) }
    }
}
