import FoundationEssentials
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

    /// Creates the default manifest from the shipped one when there is none yet.
    func installDefaultManifest() throws(CommandFailure) {
        guard !FileManager.default.fileExists(atPath: manifest) else { return }
        guard let template = DefaultManifest.shipped() else {
            throw CommandFailure("no manifest at \(manifest), and no default manifest to copy there; write one (see README)", exitCode: .usage)
        }
        do {
            if try DefaultManifest.install(at: manifest, from: template) {
                FileDescriptorOutput.standardError.write("syncagent: created \(manifest) from the default manifest; edit it to choose your files\n")
            }
        } catch {
            throw CommandFailure(error.message, exitCode: .environment)
        }
    }

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
