import ArgumentParser
import Foundation
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
            for entry in manifest.files {
                listing += "  \(entry.title)\n      \(entry.url)\n    \(arrow) \(entry.path)" + (entry.sha256 != nil ? "  (SHA-256 checked)" : "")
                    + (entry.nameFromServer ? "  (or the name the server gives it, the first time: Content-Disposition)" : "") + "\n"
            }
            print(listing, terminator: "")
        }
    }
}
