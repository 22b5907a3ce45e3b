import Foundation
import Logging
import SyncAgentKit

/// `syncagent --once`: one batch now, progress on the terminal, one notification at the end.
struct OnceCommand {
    let locations: Locations
    let logger: Logger

    func run() throws(CommandFailure) {
        // First, before any thread starts: Ctrl-C must reach the transfer loop as a request.
        let signals = SignalInbox()
        let manifest = try locations.loadManifest()
        let lock = try locations.takeLock()
        defer { withExtendedLifetime(lock) {} }
        let store = try locations.openState()
        let reporter = makeProgressReporter()

        let titles = manifest.files.map(\.title)
        let paths = manifest.files.map(manifest.destinationPath(of:))
        let end: BatchRunner.End
        let runner = BatchRunner(manifest: manifest, store: store)
        do {
            end = try runner.run(signals: signals) { event in
                report(event, titles: titles, paths: paths, to: reporter)
            }
        } catch {
            reporter.restore()
            throw CommandFailure(error.description, exitCode: .environment)
        }
        guard case .finished(let results) = end else {
            reporter.restore()
            throw CommandFailure("interrupted; the next run resumes where this one stopped", exitCode: .interrupted)
        }
        reporter.finish()
        if !runner.skipped.isEmpty {
            logger.notice("left out, as you paused or stopped them: \(runner.skipped.joined(separator: ", ")) (`syncagent start` releases them)")
        }
        notify(manifest: manifest, results: results)
        if results.contains(where: { if case .failed = $0.outcome { true } else { false } }) {
            throw CommandFailure("", exitCode: .someFailed)
        }
    }

    /// Posts the batch's summary, unless the manifest turned notifications off or nothing
    /// changed. A desktop without a notification server is not a failure: it is logged.
    private func notify(manifest: Manifest, results: [FileResult]) {
        guard manifest.notify, let notification = DesktopNotification.batchSummary(of: results, destination: manifest.destination) else { return }
        do throws(NotificationError) {
            try LibnotifyNotifier().post(notification)
        } catch {
            logger.warning("could not show the desktop notification: \(error.message)")
        }
    }
}

/// Hands engine events to the progress reporter, with the titles and paths they stand for.
private func report(_ event: TransferEvent, titles: [String], paths: [String], to reporter: any ProgressReporter) {
    switch event {
    case .started(let id, let offset):
        reporter.transferStarted(path: paths[id], title: titles[id], receivedBytes: offset, expectedBytes: nil)
    case .receiving(let id, _, let offset, let expectedLength):
        reporter.transferReceiving(path: paths[id], receivedBytes: offset, expectedBytes: expectedLength)
    case .progress(let id, let received, let expectedLength):
        reporter.transferProgressed(path: paths[id], receivedBytes: received, expectedBytes: expectedLength)
    case .willRetry(let id, let delay, let failure):
        reporter.transferWillRetry(path: paths[id], after: delay, because: failure)
    case .finished(let id, let completion):
        reporter.transferFinished(FileResult(title: titles[id], path: paths[id], outcome: completion.outcome))
    }
}
