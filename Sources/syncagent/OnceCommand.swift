import Foundation
import Logging
import SyncAgentKit

/// `syncagent --once`: one batch now, progress on the terminal, one notification at the end.
struct OnceCommand {
    let locations: Locations
    let logger: Logger

    func run() async throws(CommandFailure) {
        let manifest = try locations.loadManifest()
        let lock: AgentLock
        do {
            lock = try AgentLock(path: locations.lockPath)
        } catch {
            throw CommandFailure(error.message, exitCode: error.code == .alreadyRunning ? .alreadyRunning : .environment)
        }
        defer { withExtendedLifetime(lock) {} }
        let store = try locations.openState()
        let reporter = makeProgressReporter()
        let interruption = Interruption { reporter.restore() }
        defer { interruption.cancel() }

        let results = try await runBatch(manifest: manifest, store: store, reporter: reporter)
        reporter.finish()
        await notify(manifest: manifest, results: results)
        let failed = results.contains { if case .failed = $0.outcome { true } else { false } }
        if failed { throw CommandFailure("", exitCode: .someFailed) }
    }

    /// Runs the transfers on a thread of their own: they block in `curl_multi_poll`, which
    /// must not hold one of the few threads Swift concurrency runs tasks on.
    private func runBatch(manifest: Manifest, store: StateStore, reporter: any ProgressReporter) async throws(CommandFailure) -> [FileResult] {
        let titles = manifest.files.map(\.title)
        let paths = manifest.files.map(manifest.destinationPath(of:))
        let box = UncheckedSendable(store)
        let outcome: Result<[FileResult], StateStoreError> = await onDedicatedThread {
            let runner = BatchRunner(manifest: manifest, store: box.value)
            return Result(catching: { () throws(StateStoreError) in
                try runner.run { event in report(event, titles: titles, paths: paths, to: reporter) }
            })
        }
        switch outcome {
        case .success(let results): return results
        case .failure(let error):
            reporter.restore()
            throw CommandFailure(error.description, exitCode: .environment)
        }
    }

    /// Posts the batch's summary, unless the manifest turned notifications off or nothing
    /// changed. A desktop without a notification server is not a failure: it is logged.
    private func notify(manifest: Manifest, results: [FileResult]) async {
        guard manifest.notify, let notification = DesktopNotification.batchSummary(of: results, destination: manifest.destination) else { return }
        do {
            try await LibnotifyNotifier().post(notification)
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
        reporter.transferProgressed(path: paths[id], receivedBytes: offset, expectedBytes: expectedLength)
    case .progress(let id, let received, let expectedLength):
        reporter.transferProgressed(path: paths[id], receivedBytes: received, expectedBytes: expectedLength)
    case .willRetry(let id, let delay, let failure):
        reporter.transferWillRetry(path: paths[id], after: delay, because: failure)
    case .finished(let id, let completion):
        reporter.transferFinished(FileResult(title: titles[id], path: paths[id], outcome: completion.outcome))
    }
}

/// Moves a value that is only ever used by one thread at a time across to another thread.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on a new thread and resumes with its result.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = "syncagent transfers"
        thread.start()
    }
}
