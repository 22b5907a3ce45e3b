import FoundationEssentials
import SyncAgentKit

/// `syncagent --once --dry-run`: what `--once` would fetch and why, from the same planning as
/// the batch itself (``SyncDriver/preview(conditions:)``), writing nothing — no state, no
/// lock, no files, not even the default manifest. It takes no lock, so it also answers while
/// the agent runs.
struct DryRunCommand {
    let locations: Locations
    /// `--verbose`: each file's URL too.
    let verbose: Bool
    /// The process's environment, for the locale's symbols and the home folder.
    let environment: [String: String]

    func run() throws(CommandFailure) {
        if locations.manifestIsDefault && !FileManager.default.fileExists(atPath: locations.manifest) {
            throw CommandFailure(
                "no manifest at \(locations.manifest) yet; `syncagent --once` creates it from the default manifest (a dry run writes nothing)",
                exitCode: .usage
            )
        }
        let manifest = try locations.loadManifest()
        let files: [SyncDriver.PreviewedFile]
        let feeds: [SyncDriver.PreviewedFeed]
        do {
            let driver = SyncDriver(store: try StateStore(readingOnlyIn: locations.stateDirectory), mode: .everyFileNow)
            driver.use(manifest)
            feeds = try driver.previewFeeds()
            files = try driver.preview()
        } catch {
            throw CommandFailure(error.description, exitCode: .environment)
        }
        let listing = DryRunListing(symbols: TerminalSymbols.forLocale(environment: environment), verbose: verbose, now: Date())
        let folder = ShownPath.abbreviated(manifest.destination, home: environment["HOME"])
        FileDescriptorOutput.standardOutput.write(listing.text(files, feeds: feeds, folder: folder, root: manifest.destination))
    }
}
