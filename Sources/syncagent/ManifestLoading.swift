import Foundation
import SyncAgentKit

extension Locations {
    /// The manifest this run uses, valid, or a ``CommandFailure`` (exit 2) listing every problem.
    /// The default manifest is created from the shipped one on first run.
    func loadManifest() throws(CommandFailure) -> Manifest {
        if manifestIsDefault { try installDefaultManifest() }
        guard FileManager.default.fileExists(atPath: manifest) else {
            throw CommandFailure("no manifest at \(manifest)", exitCode: .usage)
        }
        do {
            return try loadValidManifest()
        } catch {
            throw CommandFailure(error.description + "\nNothing was changed; fix the manifest and try again.", exitCode: .usage)
        }
    }

    /// The manifest as it is on disk now, or every problem in it.
    func loadValidManifest() throws(InvalidManifest) -> Manifest {
        let context = ManifestLoader.Context(
            manifestPath: manifest,
            homeDirectory: directories.home,
            defaultDestination: directories.defaultDestination,
            workingDirectory: FileManager.default.currentDirectoryPath
        )
        return try ManifestLoader(context: context).load()
    }

    /// Creates the default manifest from the shipped one when there is none yet.
    func installDefaultManifest() throws(CommandFailure) {
        guard !FileManager.default.fileExists(atPath: manifest) else { return }
        guard let template = Self.shippedManifest() else {
            throw CommandFailure("no manifest at \(manifest), and no default manifest to copy there; write one (see README)", exitCode: .usage)
        }
        do {
            if try DefaultManifest.install(at: manifest, from: template) {
                FileDescriptorOutput.standardError.write("syncagent: created \(manifest) from the default manifest; edit it to choose your files\n")
            }
        } catch {
            throw CommandFailure("cannot create \(manifest): \(error.localizedDescription)", exitCode: .environment)
        }
    }

    /// The default manifest that ships with this build: beside an installed binary
    /// (`/usr/bin` → `/usr/share/syncagent/`), else in the source tree it was built from.
    private static func shippedManifest() -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/syncagent/manifest.yaml").path
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/manifest.yaml").path
        return [installed, sourceTree].first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The lock that keeps two agents (or an agent and `--once`) from working on one state and
    /// its files at once.
    var lockPath: String { stateDirectory + "/agent.lock" }

    /// The lock, or a ``CommandFailure`` saying who holds it (exit 4).
    func takeLock() throws(CommandFailure) -> AgentLock {
        do {
            return try AgentLock(path: lockPath)
        } catch {
            throw CommandFailure(error.message, exitCode: error.code == .alreadyRunning ? .alreadyRunning : .environment)
        }
    }

    /// The saved state, or a ``CommandFailure`` (exit 3) saying what to do.
    func openState() throws(CommandFailure) -> StateStore {
        do {
            return try StateStore(directory: stateDirectory)
        } catch {
            throw CommandFailure(error.description, exitCode: .environment)
        }
    }
}
