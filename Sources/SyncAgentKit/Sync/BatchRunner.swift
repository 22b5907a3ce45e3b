import Foundation

/// One batch, as `syncagent --once` runs it: every file of a manifest brought up to date now,
/// conditions and schedule aside, with state saved as it goes. Files the user paused or
/// stopped are left alone (see ``skipped``).
public final class BatchRunner {
    private let manifest: Manifest
    private let ledger: TransferLedger
    private let options: TransferOptions
    /// The titles of the files left out because the user paused or stopped them.
    public private(set) var skipped: [String] = []

    public init(manifest: Manifest, store: StateStore, options: TransferOptions = TransferOptions(), now: @escaping () -> Date = Date.init) {
        self.manifest = manifest
        self.ledger = TransferLedger(store: store, now: now)
        self.options = options
    }

    /// How a batch ended.
    public enum End {
        /// Every fetched file's result, in manifest order.
        case finished([FileResult])
        /// SIGINT or SIGTERM stopped it; partials were kept for the next run.
        case interrupted
    }

    /// Runs the batch until every file is done with, or until `signals` asks it to stop.
    /// `onEvent` sees every engine event (ids are indexes into `manifest.files`) after the
    /// state has recorded it.
    public func run(signals: SignalInbox? = nil, onEvent: @escaping (TransferEvent) -> Void = { _ in }) throws(StateStoreError) -> End {
        try ledger.readAllRecords()
        var requests: [TransferRequest] = []
        for (index, entry) in manifest.files.enumerated() {
            let path = manifest.destinationPath(of: entry)
            if try ledger.record(for: entry, at: path)?.hold != nil {
                skipped.append(entry.title)
            } else {
                requests.append(try ledger.request(id: index, for: entry, at: path, root: manifest.destination))
            }
        }
        let byID = Dictionary(uniqueKeysWithValues: requests.map { ($0.id, $0) })
        var results = [FileResult?](repeating: nil, count: manifest.files.count)
        var firstStateError: StateStoreError?
        let engine = TransferEngine(limits: manifest.limits, retry: manifest.retry, options: options) { [self] event in
            guard let request = byID[event.id] else { return }
            do throws(StateStoreError) {
                try ledger.record(event, of: request, retry: manifest.retry)
            } catch {
                firstStateError = firstStateError ?? error
            }
            if case .finished(let id, let completion) = event {
                results[id] = FileResult(title: manifest.files[id].title, path: request.destination, outcome: completion.outcome)
            }
            onEvent(event)
        }
        engine.add(requests)
        let watched = signals.map { [$0.descriptor] } ?? []
        var interrupted = false
        while !engine.isIdle && !interrupted {
            let readable = engine.step(until: ledger.saveDeadline, watching: watched)
            if let signals, readable.contains(signals.descriptor), signals.take().contains(.stop) {
                engine.stopAll()
                interrupted = true
            }
            try ledger.saveChangesIfDue(at: .now)
        }
        try ledger.saveChanges()
        if let firstStateError { throw firstStateError }
        if interrupted { return .interrupted }
        return .finished(results.compactMap { $0 })
    }
}
