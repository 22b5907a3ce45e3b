import FoundationEssentials
import Logging
import SyncAgentKit

/// `syncagent --once`: one batch now, progress on the terminal, one notification at the end.
struct OnceCommand {
    /// How the batch is shown, from the command line.
    struct Options {
        /// Colours and symbols for standard output.
        var style: TerminalStyle
        /// `--quiet`: only failures, on standard error.
        var quiet = false
        /// `--verbose`: each file's URL.
        var verbose = false
        /// Whether the batch ends with a desktop notification (`--no-notify` says no).
        var notify = true
        /// `--limit-rate`: a cap on all transfers together, in bytes per second.
        var limitRate: Int64?
        /// The home folder (`HOME`), which paths are shown relative to (`~/Downloads`).
        var home: String?
    }

    let locations: Locations
    let logger: Logger
    let options: Options

    func run() throws(CommandFailure) {
        // First, before any thread that could take a signal starts (the library-loading one
        // blocks them all): Ctrl-C must reach the transfer loop as a request.
        let signals = SignalInbox()
        let manifest = try locations.loadManifest()
        let lock = try locations.takeLock()
        defer { withExtendedLifetime(lock) {} }
        let store = try locations.openState()
        let folder = ShownPath.abbreviated(manifest.destination, home: options.home)
        let reporter: any ProgressReporter = options.quiet
            ? QuietProgressReporter(verbose: options.verbose)
            : makeProgressReporter(style: options.style, verbose: options.verbose, folder: folder)

        // A suspend waits while the batch the user asked for transfers, and no longer: once it
        // has been receiving for a second, so neither a re-check that finds every file
        // unchanged nor a batch over within the second asks logind (nor opens GLib to ask).
        var sleepDelay: SleepInhibitor?
        var sleepDelayTiming = SleepDelayTiming()
        defer { sleepDelay?.release() }
        let driver = SyncDriver(store: store, mode: .everyFileNow, observe: { event, file in
            if event.isBodyArriving, sleepDelayTiming.asksForDelay(bodyArrivingAt: .now) {
                sleepDelay = delaySleep(logger: logger)
            }
            report(event, of: file, to: reporter)
        })
        // Only now, with the state open and the driver made, not before: libcurl's tree is
        // being opened on another thread since the command started (SharedLibraryPreload), and
        // all of that is work this thread does meanwhile. Still before the first transfer (the
        // driver makes its engine when its round hands it one), so that a missing libcurl ends
        // the command with the package to install.
        do {
            try loadTransferLibraries()
        } catch {
            reporter.restore()
            throw error
        }
        driver.use(manifest)
        driver.limitRate = options.limitRate
        let end: SyncDriver.BatchEnd
        do {
            end = try driver.runOneBatch(stoppingOn: signals) { files in
                reporter.batchPlanned(fileCount: files.count)
            }
            sleepDelay?.release()
        } catch {
            reporter.restore()
            throw CommandFailure(error.description, exitCode: .environment)
        }
        if case .interrupted(let resuming, let startingOver) = end {
            reporter.restore()
            throw CommandFailure(interruptionMessage(resuming: resuming, startingOver: startingOver), exitCode: .interrupted)
        }
        guard case .finished(let report) = end else { return }
        let held = HeldFilesNotice.message(held: driver.heldFiles, fileCount: manifest.files.count, feedCount: manifest.feeds.count)
        if report == nil, let held, driver.heldFiles.count >= manifest.files.count + manifest.feeds.count {
            // Nothing ran: no board to take down, and no "0 files" summary to print.
            reporter.restore()
            throw CommandFailure(held, exitCode: .held)
        }
        reporter.finish()
        let failed = report?.results.contains(where: { if case .failed = $0.outcome { true } else { false } }) ?? false
        if let report { notify(manifest: manifest, report: report) }
        // Files the user held are their choice, not a failure: said, and the exit status is
        // that of the others.
        if let held { logger.notice("\(held)") }
        if failed { throw CommandFailure("", exitCode: .someFailed) }
    }

    /// Posts the batch's summary as the announcer words it, unless the manifest turned
    /// notifications off or nothing changed. A desktop without a notification server is not a
    /// failure: it is logged.
    private func notify(manifest: Manifest, report: BatchReport) {
        var announcer = BatchAnnouncer(places: .init(home: options.home))
        guard options.notify, manifest.notify, var notification = announcer.announce(report).notification else { return }
        if !manifest.notifySound { notification.soundName = nil }
        do throws(NotificationError) {
            try LibnotifyNotifier().post(notification)
        } catch {
            logger.warning("could not show the desktop notification: \(error.message)")
        }
    }
}

/// What Ctrl-C left, file by file: "interrupted; the next run resumes Big Guide where it
/// stopped and starts Small Guide over".
func interruptionMessage(resuming: [String], startingOver: [String]) -> String {
    func names(_ titles: [String]) -> String {
        titles.count <= 3 ? titles.joined(separator: ", ") : titles.prefix(2).joined(separator: ", ") + " and \(titles.count - 2) more"
    }
    var parts: [String] = []
    if !resuming.isEmpty { parts.append("resumes \(names(resuming)) where \(resuming.count == 1 ? "it" : "they") stopped") }
    if !startingOver.isEmpty { parts.append("starts \(names(startingOver)) over") }
    return parts.isEmpty ? "interrupted" : "interrupted; the next run " + parts.joined(separator: " and ")
}

/// Hands transfer events to the progress reporter.
private func report(_ event: TransferEvent, of file: SyncDriver.TrackedFile, to reporter: any ProgressReporter) {
    switch event {
    case .started(_, let offset):
        reporter.transferStarted(path: file.path, title: file.title, receivedBytes: offset, expectedBytes: nil)
    case .receiving(_, _, let offset, let expectedLength):
        reporter.transferReceiving(path: file.path, title: file.title, url: file.url, receivedBytes: offset, expectedBytes: expectedLength)
    case .progress(_, let received, let expectedLength):
        reporter.transferProgressed(path: file.path, receivedBytes: received, expectedBytes: expectedLength)
    case .willRetry(_, let delay, let failure):
        reporter.transferWillRetry(path: file.path, after: delay, because: failure)
    case .finished(_, let completion):
        reporter.transferFinished(path: file.path, title: file.title, url: file.url, outcome: completion.outcome)
    }
}

/// A logind lock that delays suspend until the batch is over; `nil`, with a debug line, where
/// logind cannot grant one (no system bus, a container): the batch runs the same.
func delaySleep(logger: Logger) -> SleepInhibitor? {
    do {
        return try SleepInhibitor(why: SleepInhibitor.requestedDownloads)
    } catch {
        logger.debug("suspend is not delayed while files download: \(error.message)")
        return nil
    }
}
