import FoundationEssentials

/// The bookkeeping between the manifest, the state and the engine: what to ask the server for
/// each file (given what the state and the disk say), and what to remember when a transfer
/// reports back.
///
/// Every state write of a transfer happens here. Events change records in memory; their owner
/// saves the changes with ``saveChanges()`` in one transaction, at most ``saveInterval``
/// after the first of them or once ``mostUnsaved`` wait: a batch of 10,000 files costs a few
/// transactions instead of 10,000. Until then a crash loses those changes, which leaves the
/// state as it was before them — a file put in place but not yet recorded is re-checked by its
/// modification time, a partial whose validators were not recorded is downloaded again — so
/// the state never claims more than is on disk.
final class TransferLedger {
    private let store: StateStore
    private let now: () -> Date
    private let unitRandom: () -> Double
    /// The saved records of the files a batch asks about, as read at once with
    /// ``readRecords(forPaths:urls:)``, the paths read with none, and the records changed since
    /// the last ``saveChanges()``, by path: each until a change to it is saved.
    private var batch = BatchRecords()
    /// Answers "nothing on disk" for the files of a batch from a read of their folder.
    private let listings: DestinationListings

    init(store: StateStore, now: @escaping () -> Date, unitRandom: @escaping () -> Double = { Double.random(in: 0..<1) },
         listings: DestinationListings = DestinationListings()) {
        self.store = store
        self.now = now
        self.unitRandom = unitRandom
        self.listings = listings
    }

    /// Reads the saved records of the files at `paths` not read before, in one query, for a
    /// batch that is about to ask about each of them: one query costs less than thousands,
    /// and reads nothing of the files a state keeps for other manifests. A path read with no
    /// record has none later either, as far as this ledger is concerned. Records that others
    /// change later (the user's holds) are not seen; see
    /// ``StateStore/saveTransferResults(_:resultsOnly:)`` for why that loses nothing.
    ///
    /// `urls`, when given, names the URL of the entry at each place of `paths`: a record saved
    /// for that URL holds the entry's string, not a copy of it (10,000 of them, 0.8 MB).
    func readRecords(forPaths paths: [String], urls: ((Int) -> String)? = nil) throws(StateStoreError) {
        // Nothing read yet (a batch's first round): every path is new, with no search each.
        let new = batch.isEmpty ? nil : paths.indices.filter { !batch.knows(paths[$0]) }
        let count = new?.count ?? paths.count
        guard count > 0 else { return }
        let newPaths = new.map { $0.map { paths[$0] } } ?? paths
        listings.expect(newPaths)
        var reserved = false
        // A few queries rather than one: the records of one come as an array beside the
        // records they join, and 10,000 of them would be 2 MB more at once.
        for start in stride(from: 0, to: count, by: Self.recordsPerQuery) {
            let places = start..<min(start + Self.recordsPerQuery, count)
            let chunk = Array(newPaths[places])
            let chunkURLs = urls.map { url in places.map { url(new?[$0] ?? $0) } }
            var records = try store.records(forPaths: chunk, urls: chunkURLs)
            let found = records.count
            if !reserved {
                // Room for all at once: growing by doubling rehashes 10,000 paths some 14
                // times, and the old storage and the new would both be alive at the largest
                // step. Files that have records come in batches that have them (a re-check):
                // room in the array of records only then.
                batch.reserveCapacity(count - start, withRecords: found > 0)
                reserved = true
            }
            // Each record's path is the caller's string (see StateStore.records(forPaths:urls:)),
            // not a second copy of each from the database. Moved out of the array, the last
            // first (their order is nobody's business): a loop over it copied each record,
            // its strings retained and released.
            while let record = records.popLast() { batch.insert(record) }
            // As many records as paths: every path has one (a path is one record at most).
            guard found < chunk.count else { continue }
            for path in chunk { batch.insertAbsent(path) }
        }
    }

    /// How many paths ``readRecords(forPaths:)`` asks the store about at once.
    static let recordsPerQuery = 1_000

    /// The longest a change waits to be saved. Each save is a transaction that costs about
    /// as much as a hundred record updates; saving what a millisecond changed would cost a
    /// transaction per file or two.
    static let saveInterval: Duration = .milliseconds(100)

    /// The most changes kept unsaved: with as many, they are due at once, however short they
    /// waited. A fast re-check finds thousands of files unchanged within ``saveInterval``, and
    /// each change waits as a whole record (200 bytes, and as much again while being saved):
    /// 4,000 of them were 2.5 MB of its peak. A transaction per thousand changes costs about a
    /// tenth of what they cost.
    static let mostUnsaved = 1_000

    /// Since when records have changed without being saved; `nil` when all are saved.
    private(set) var unsavedSince: ContinuousClock.Instant?

    /// When the unsaved changes must be saved at the latest: ``saveInterval`` after the first,
    /// or when they came to be ``mostUnsaved``.
    var saveDeadline: ContinuousClock.Instant? {
        unsavedSince.map { batch.changeCount >= Self.mostUnsaved ? $0 : $0 + Self.saveInterval }
    }

    /// Saves the changes if they are due (see ``saveDeadline``).
    func saveChangesIfDue(at now: ContinuousClock.Instant) throws(StateStoreError) {
        if let saveDeadline, now >= saveDeadline { try saveChanges() }
    }

    /// Saves every record changed since the last call, in one transaction.
    func saveChanges() throws(StateStoreError) {
        guard batch.changeCount > 0 else { return }
        // A record as saved before but for its result (a re-check's) costs an update of
        // those columns only.
        var whole: [FileRecord] = []
        var resultsOnly: [FileRecord] = []
        batch.takeChanges { (record: consuming FileRecord, before: consuming FileRecord?) in
            if let before = consume before, record.differsOnlyInResult(from: before) {
                resultsOnly.append(record)
            } else {
                whole.append(record)
            }
        }
        unsavedSince = nil
        try store.saveTransferResults(whole, resultsOnly: resultsOnly)
    }

    /// The record of a file as this ledger knows it, if it was saved for the same URL (a new
    /// URL starts afresh).
    func record(for entry: Manifest.Entry, at path: String) throws(StateStoreError) -> FileRecord? {
        try record(forURL: entry.url, at: path)
    }

    /// The record of the file at `path`, if it was saved for `url` (see ``record(for:at:)``).
    func record(forURL url: String, at path: String) throws(StateStoreError) -> FileRecord? {
        try currentRecord(forPath: path).saved(for: url)
    }

    private func currentRecord(forPath path: String) throws(StateStoreError) -> FileRecord? {
        if let known = batch[path] { return known }
        return try store.record(forPath: path)
    }

    /// Whether the next transfer of the file at `path` continues its partial download: one is
    /// on disk, and its version was recorded in a form `If-Range` can send.
    func resumes(_ path: String) -> Bool {
        let record = (try? currentRecord(forPath: path)) ?? nil
        return record?.partial?.ifRange != nil && PartFile.existingSize(for: record?.keptPath ?? path) > 0
    }

    /// How the scheduler sees one entry, from its saved record and the disk. The disk is not
    /// asked about a file the user requested: such a request starts it whatever is there, so
    /// `--once` spends no look-up per file on it.
    func scheduledFile(for entry: Manifest.Entry, at path: String, record: FileRecord?, requestedByUser: Bool = false) -> ScheduledFile {
        scheduledFile(schedule: entry.schedule, at: path, record: record, requestedByUser: requestedByUser)
    }

    /// See ``scheduledFile(for:at:record:requestedByUser:)``: the entry's schedule alone, so that a
    /// round reads it in place instead of copying the entry.
    func scheduledFile(schedule: Manifest.Schedule, at path: String, record: FileRecord?, requestedByUser: Bool = false) -> ScheduledFile {
        var lastCheck: ScheduledFile.LastCheck?
        if let record, let last = record.lastResult {
            switch last.kind {
            case .downloaded, .unchanged:
                lastCheck = .succeeded(last.date)
            case .failed:
                lastCheck = record.nextAttempt.map { .failedTransiently(last.date, retry: PendingRetry(date: $0, requestedByServer: false)) }
                    ?? .failedPermanently(last.date)
            }
        }
        return ScheduledFile(
            path: path, schedule: schedule, existsOnDisk: requestedByUser || FileSystem.regularFileInfo(record?.keptPath ?? path) != nil,
            lastCheck: lastCheck, requestedByUser: requestedByUser
        )
    }

    /// What to ask the server for one entry. A file its server names goes where the name it
    /// gave the first time put it; until it has one, `taken` (other entries' names, lowercased)
    /// is what its server may not name it.
    ///
    /// A file of a batch that planned many into its folder is looked for in that folder's
    /// listing first (``DestinationListings``, which says why a stale listing loses nothing).
    func request(id: Int, for entry: Manifest.Entry, at path: String, root: String, taken: Set<String> = []) throws(StateStoreError) -> TransferRequest {
        let record = try record(for: entry, at: path)
        let kept = record?.keptPath ?? path
        var current = Validators()
        let absence = listings.absence(of: kept)
        if !absence.file, let onDisk = FileSystem.regularFileInfo(kept) {
            if let record, !record.validators.isEmpty, record.size == nil || record.size == onDisk.size {
                current = record.validators
            } else {
                // No usable state: the mtime we stamped from Last-Modified still lets the server say 304.
                current = Validators(lastModified: HTTPDate.format(onDisk.modificationTime))
            }
        }
        let naming = entry.nameFromServer && record?.servedName == nil
        return TransferRequest(
            id: id, url: entry.url, destination: kept, root: root, expectedSHA256: entry.sha256,
            current: current, partial: record?.partial, maximumSize: entry.maxSize,
            serverNaming: naming ? ServerNaming(taken: taken.subtracting([splitPath(path).name.lowercased()])) : nil,
            noPartialOnDisk: absence.partial
        )
    }

    /// Saves what an event changes. `retry` is the policy that decides when a failed file may
    /// be tried again: saved as ``FileRecord/nextAttempt``, which is set exactly when the
    /// failure was transient (the scheduler tells transient from permanent failures by it).
    /// (`retry` is asked for only then: it is read from the driver's manifest, which costs a
    /// checked access for every event.)
    func record(_ event: TransferEvent, of transfer: InFlightTransfer, retry: @autoclosure () -> Manifest.RetryPolicy) throws(StateStoreError) {
        let path = transfer.path
        switch event {
        case .receiving(_, let validators, _, let expectedLength):
            // Every partial that has a name on disk can be continued, so its version is kept;
            // a small new file has none (``PartFile/largestUnnamedLength``) and starts over.
            guard expectedLength.map({ $0 > PartFile.largestUnnamedLength }) ?? true else { return }
            try change(at: path, url: transfer.url) { record in
                record.partial = validators
                record.partialLength = expectedLength
            }
        case .finished(_, let completion):
            try change(at: path, url: transfer.url) { record in
                record.partial = completion.partial
                record.nextAttempt = nil
                switch completion.outcome {
                case .downloaded(let bytes):
                    // A name the server gave is chosen once: kept whatever it says later.
                    if transfer.namedByServer, let keptAt = completion.keptAt { record.servedName = splitPath(keptAt).name }
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
                    record.nextAttempt = RetryBackoff(policy: retry())
                        .nextAttempt(after: failure.retryCause, failedAttempts: record.failedAttempts, at: now(), unitRandom: unitRandom())?.date
                }
            }
        case .started, .progress, .willRetry:
            return
        }
    }

    /// Changes the record of the file at `path` with `body` (a new one when it has none for
    /// `url`), to be saved with the next ``saveChanges()``.
    private func change(at path: String, url: String, _ body: (inout FileRecord) -> Void) throws(StateStoreError) {
        let first = batch.changeCount == 0
        try batch.change(path, unknown: { () throws(StateStoreError) in try store.record(forPath: path) },
                         start: { (known: consuming FileRecord?) in (consume known).savedOrNew(path: path, url: url) }, body)
        if first { unsavedSince = ContinuousClock.now }
    }
}
