import ArgumentParser
import FoundationEssentials
import Glibc
import SyncAgentKit

extension SyncAgent {
    /// `syncagent reset`: cancel what runs, delete the manifest's files and episodes, forget the state.
    struct ResetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Delete the files the manifest put in place and forget the saved state.",
            discussion: """
                Only files syncagent downloaded for the manifest, its feeds' episodes included, are \
                deleted, never anything else in the folder; feeds' histories are forgotten too. \
                Afterwards nothing is downloaded again until `syncagent start`.
                """
        )

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        @OptionGroup var locations: LocationOptions

        func run() throws {
            let locations = locations.resolve()
            let manifest = try locations.loadManifest()
            guard yes || confirmed(manifest: manifest) else {
                throw CommandFailure("nothing was deleted", exitCode: .usage)
            }
            if let response = try locations.ask(ControlRequest(.reset)) {
                guard response.ok else { throw CommandFailure(response.message, exitCode: .environment) }
                print(response.message)
                return
            }
            let lock = try locations.takeLock()
            defer { withExtendedLifetime(lock) {} }
            let store = try locations.openState()
            do {
                print(try OfflineControl.reset(manifest, store: store))
            } catch {
                throw CommandFailure(error.description, exitCode: .environment)
            }
        }

        /// Asks on the terminal; without one, refuses (a script must say `--yes`).
        private func confirmed(manifest: Manifest) -> Bool {
            guard isatty(STDIN_FILENO) == 1 else {
                FileDescriptorOutput.standardError.write("syncagent: reset deletes files; run it with --yes to confirm\n")
                return false
            }
            let their = manifest.files.count + manifest.feeds.count == 1 ? "its" : "their"
            let episodes = manifest.feeds.isEmpty ? "" : " and the episodes of \(counted(manifest.feeds.count, "feed"))"
            print("Delete the \(counted(manifest.files.count, "file"))\(episodes) of the manifest in \(manifest.destination) and forget \(their) state? [y/N] ",
                  terminator: "")
            fflush(nil)
            guard let answer = readLine() else { return false }
            return ["y", "yes"].contains(answer.filter { $0 != " " && $0 != "\t" }.lowercased())
        }
    }
}
