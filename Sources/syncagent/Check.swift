import ArgumentParser
import FoundationEssentials
import SyncAgentKit

extension SyncAgent {
    /// `syncagent check`: validate the manifest and show what would be fetched.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the manifest and show what would be fetched.",
            discussion: "Prints each problem as FILE:LINE:COLUMN: message and exits with 2 when there are any; changes nothing. "
                + "With --feeds, fetches each feed and lists the episodes the next batch would download (exit 1 when a feed cannot be read)."
        )

        @OptionGroup var locations: LocationOptions

        @Flag(name: .long, help: "Fetch each feed and list what would be downloaded, writing nothing.")
        var feeds = false

        @Flag(name: .long, help: "With --feeds: print every parsed episode as JSON.")
        var json = false

        func validate() throws {
            if json && !feeds { throw ValidationError("--json goes with --feeds: `syncagent check --feeds --json`") }
        }

        func run() throws {
            // Read once: each read of ProcessInfo's environment builds a new dictionary of it.
            let environment = ProcessInfo.processInfo.environment
            let locations = locations.resolve(environment: environment)
            let arrow = TerminalSymbols.forLocale(environment: environment).arrow
            let manifest = try locations.loadManifest()
            if feeds { return try checkFeeds(manifest, locations: locations, arrow: arrow) }
            // One write for the whole listing: a print per line costs more than the checks. The
            // listing is made big enough at once and each piece appended to it: an interpolated
            // line, made and then appended, found room for its pieces again and again (4,600
            // instructions an entry, more than reading and checking it).
            var listing = "\(locations.manifest): \(counted(manifest.files.count, "file")) into \(manifest.destination)\n"
            listing.reserveCapacity(listing.utf8.count + manifest.files.count * 128)
            func add(_ piece: String) {
                listing += piece
            }
            // Only read, and only when a server names a file: the name it gave is in the state.
            let state = manifest.files.contains(where: \.nameFromServer) ? try? StateStore(readingOnlyIn: locations.stateDirectory) : nil
            for entry in manifest.files {
                add("  "); add(entry.title); add("\n      "); add(entry.url); add("\n    "); add(arrow); add(" ")
                let record = entry.nameFromServer ? (try? state?.record(forPath: manifest.destinationPath(of: entry))) ?? nil : nil
                if let record, record.url == entry.url, let served = record.servedName {
                    add(served); add("  (the name its server gave it)\n")
                    continue
                }
                add(entry.path)
                if entry.sha256 != nil { add("  (SHA-256 checked)") }
                if entry.nameFromServer { add("  (or the name the server gives it, the first time: Content-Disposition)") }
                add("\n")
            }
            for feed in manifest.feeds {
                add("  "); add(feed.title); add(" (feed)\n      "); add(feed.url); add("\n    "); add(arrow); add(" "); add(feed.folder); add("/\n")
            }
            print(listing, terminator: "")
        }

        private func checkFeeds(_ manifest: Manifest, locations: Locations, arrow: String) throws {
            try loadTransferLibraries()
            // Saved state is read when there is some; none is created.
            let store = FileManager.default.fileExists(atPath: locations.stateDirectory + "/" + StateStore.fileName)
                ? try locations.openState() : nil
            let previews = FeedPreview.run(manifest, store: store, now: Date())
            print(json ? FeedPreviewJSON.text(of: previews) : listing(previews, arrow: arrow), terminator: "")
            if previews.contains(where: { $0.failure != nil }) { throw ExitCode(ExitStatus.someFailed.rawValue) }
        }

        private func listing(_ previews: [FeedPreview], arrow: String) -> String {
            var text = ""
            for preview in previews {
                text += "\(preview.title): \(preview.url)\n"
                if let failure = preview.failure {
                    text += "  could not be read: \(failure)\n"
                    continue
                }
                let wanted = preview.episodes.filter(\.wouldFetch)
                text += "  \(preview.episodes.count) \(preview.episodes.count == 1 ? "episode" : "episodes"), \(wanted.count) to download\n"
                for episode in wanted {
                    text += "  \(episode.published?.description.prefix(10) ?? "undated")  \(episode.title)\n    \(arrow) \(preview.folder)/\(episode.fileName ?? "")\n"
                }
                for warning in preview.warnings { text += "  warning: \(warning)\n" }
            }
            return text
        }
    }
}
