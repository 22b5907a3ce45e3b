import Foundation

/// One batch: every file of a manifest brought up to date now, with state saved as it goes.
///
/// The join between the parts: manifest → requests (with what the state and the disk say) →
/// engine → state → a report for the notifier and the terminal.
public final class BatchRunner {
    private let manifest: Manifest
    private let store: StateStore
    private let engine: TransferEngine
    private let now: () -> Date

    /// Partials smaller than this are not worth a database write to resume later.
    private static let smallestResumableLength: Int64 = 1 << 20

    public init(manifest: Manifest, store: StateStore, options: TransferOptions = TransferOptions(), now: @escaping () -> Date = Date.init) {
        self.manifest = manifest
        self.store = store
        self.engine = TransferEngine(limits: manifest.limits, retry: manifest.retry, options: options)
        self.now = now
    }

    /// Runs the batch and returns each file's result, in manifest order. `onEvent` sees every
    /// engine event (ids are indexes into `manifest.files`) after the state has recorded it.
    public func run(onEvent: @escaping (TransferEvent) -> Void = { _ in }) throws(StateStoreError) -> [FileResult] {
        let requests = try manifest.files.indices.map { index throws(StateStoreError) in try request(for: index) }
        var results = [FileResult?](repeating: nil, count: requests.count)
        var firstStateError: StateStoreError?
        engine.run(requests) { [self] event in
            do throws(StateStoreError) {
                if let result = try record(event, requests: requests) { results[result.index] = result.result }
            } catch {
                firstStateError = firstStateError ?? error
            }
            onEvent(event)
        }
        if let firstStateError { throw firstStateError }
        return results.map { $0! }
    }

    /// What to ask the server for one entry, given the state and what is on disk.
    private func request(for index: Int) throws(StateStoreError) -> TransferRequest {
        let entry = manifest.files[index]
        let path = manifest.destinationPath(of: entry)
        let record = try store.record(forPath: path).flatMap { $0.url == entry.url ? $0 : nil }
        var current = Validators()
        if let onDisk = FileSystem.regularFileInfo(path) {
            if let record, !record.validators.isEmpty, record.size == nil || record.size == onDisk.size {
                current = record.validators
            } else {
                // No usable state: the mtime we stamped from Last-Modified still lets the server say 304.
                current = Validators(lastModified: HTTPDate.format(onDisk.modificationTime))
            }
        }
        return TransferRequest(
            id: index, url: entry.url, destination: path, expectedSHA256: entry.sha256,
            current: current, partial: record?.partial
        )
    }

    /// Saves what an event changes; returns the file's result when the event ends it.
    private func record(_ event: TransferEvent, requests: [TransferRequest]) throws(StateStoreError) -> (index: Int, result: FileResult)? {
        switch event {
        case .receiving(let id, let validators, _, let expectedLength):
            guard expectedLength.map({ $0 >= Self.smallestResumableLength }) ?? true else { return nil }
            var record = try existingRecord(for: requests[id])
            record.partial = validators
            try store.save(record)
            return nil
        case .finished(let id, let completion):
            var record = try existingRecord(for: requests[id])
            record.partial = completion.partial
            switch completion.outcome {
            case .downloaded(let bytes):
                record.validators = completion.validators ?? Validators()
                record.size = bytes
                record.failedAttempts = 0
                record.lastResult = LastResult(kind: .downloaded, date: now())
            case .unchanged:
                record.failedAttempts = 0
                record.lastResult = LastResult(kind: .unchanged, date: now())
            case .failed(let failure):
                record.failedAttempts += 1
                record.lastResult = LastResult(kind: .failed, message: failure.message, date: now())
            }
            try store.save(record)
            let entry = manifest.files[id]
            return (id, FileResult(title: entry.title, path: requests[id].destination, outcome: completion.outcome))
        case .started, .progress, .willRetry:
            return nil
        }
    }

    private func existingRecord(for request: TransferRequest) throws(StateStoreError) -> FileRecord {
        let stored = try store.record(forPath: request.destination)
        guard let stored, stored.url == request.url else { return FileRecord(path: request.destination, url: request.url) }
        return stored
    }
}
