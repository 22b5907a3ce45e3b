import ArgumentParser
import FoundationEssentials
import SyncAgentKit

extension SyncAgent {
    /// `syncagent check`: validate the manifest and show what would be fetched.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the manifest and show what would be fetched.",
            discussion: "Prints each problem as FILE:LINE:COLUMN: message and exits with 2 when there are any; changes nothing."
        )

        @OptionGroup var locations: LocationOptions

        func run() throws {
            let locations = locations.resolve()
            let arrow = TerminalSymbols.forLocale(environment: ProcessInfo.processInfo.environment).arrow
            let manifest = try locations.loadManifest()
            // One write for the whole listing: a print per line costs more than the checks.
            var listing = "\(locations.manifest): \(counted(manifest.files.count, "file")) into \(manifest.destination)\n"
            // Only read, and only when a server names a file: the name it gave is in the state.
            let state = manifest.files.contains(where: \.nameFromServer) ? try? StateStore(readingOnlyIn: locations.stateDirectory) : nil
            for entry in manifest.files {
                var name = entry.path + (entry.sha256 != nil ? "  (SHA-256 checked)" : "")
                if entry.nameFromServer {
                    let record = (try? state?.record(forPath: manifest.destinationPath(of: entry))) ?? nil
                    if let record, record.url == entry.url, let served = record.servedName {
                        name = served + "  (the name its server gave it)"
                    } else {
                        name += "  (or the name the server gives it, the first time: Content-Disposition)"
                    }
                }
                listing += "  \(entry.title)\n      \(entry.url)\n    \(arrow) \(name)\n"
            }
            print(listing, terminator: "")
        }
    }
}
