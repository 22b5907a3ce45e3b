import FoundationEssentials

/// The one batch driver, for `syncagent --once` and for the agent alike: asks the
/// ``Scheduler`` which files of the manifest are due, hands them to the ``TransferEngine``,
/// records every result in the ``TransferLedger``, and gathers each batch's results into a
/// ``BatchReport`` for the announcer.
///
/// The caller owns the loop and the clock's waits: it calls ``plan(conditions:)`` when time or
/// something new calls for a scheduling round, ``step(until:watching:)`` to let transfers run,
/// and ``finishBatch()`` once the engine is idle. `--once` plans once in
/// ``Mode/everyFileNow`` and steps until idle; the agent plans in ``Mode/onSchedule`` whenever
/// its timer, the conditions, the manifest or a command call for it.
///
/// Not thread-safe: create it and drive it from one thread, as the engine it owns.
public final class SyncDriver {
    /// Whose rules a scheduling round follows.
    public enum Mode: Sendable {
        /// Every file now, as `--once` asks: the user's explicit request, so only a server's
        /// pending `Retry-After` holds a file back (``ScheduledFile/requestedByUser``).
        case everyFileNow
        /// Each file when its schedule, window and conditions allow, and files the user
        /// started (``release(_:)``) at once: the agent.
        case onSchedule
    }

    /// A file a transfer event is about.
    public struct TrackedFile: Sendable, Equatable {
        /// The manifest entry's title.
        public var title: String
        /// Where the file is kept.
        public var path: String
        /// Where it comes from, for messages that name the server.
        public var url: String
    }

    public let mode: Mode
    /// The manifest in force; `nil` until ``use(_:)``.
    public private(set) var manifest: Manifest?
    /// Titles of the files and feeds the last scheduling round left alone because the user
    /// paused or stopped them.
    public var held: [String] { heldFiles.map(\.title) }
    /// The files and feeds the last scheduling round left alone, by title, with how the user
    /// held them (an episode held on its own is not among them: it is its feed's business).
    public private(set) var heldFiles: [(title: String, hold: Hold)] = []
    /// Files the last scheduling round did not start, and why, by path.
    public private(set) var waiting: [String: WaitReason] = [:]
    /// Something changed that the last scheduling round did not know (a failure that will be
    /// retried, an edit, a command): the owner of the loop should plan again soon.
    public var planRequested = true

    let store: StateStore
    let ledger: TransferLedger
    let now: () -> Date
    /// The zone windows, `not_before` days and bandwidth windows are local to, asked for the
    /// first time a round needs it (see ``plan(conditions:)``): finding the current zone reads
    /// the whole environment twice (1.1 M instructions), and `--once` never needs it.
    lazy var timeZone: TimeZone = currentTimeZone()
    private let currentTimeZone: () -> TimeZone
    private let options: TransferOptions
    private let observe: (TransferEvent, TrackedFile) -> Void

    /// The engine ids of the files and feeds planned since the engine was last idle, by path
    /// (a feed's: its folder); forgotten when it is idle again (``finishBatch()``), so a
    /// batch's thousands are not kept for the next.
    var ids: [String: Int] = [:]
    /// The id the next new path or folder gets: ids are never used twice.
    private var nextID = 0
    /// What each id stands for while its transfer is pending, from when its request is made
    /// (the engine makes it when the transfer can start: see ``makeRequest(id:ticket:)``).
    var inFlight: [Int: InFlightTransfer] = [:]
    /// The episodes planned whose requests are not made yet, by id (a file's ticket is its
    /// place in the manifest; an episode has none).
    var plannedEpisodes: [Int: Manifest.Entry] = [:]
    /// The names a server may not give its file (see ``takenFileNames(in:)``), as the last
    /// round found them.
    private var takenNames: Set<String> = []
    /// The whole sizes of files paused while they ran, by path, for `status`.
    var pausedSizes: [String: Int64] = [:]
    /// Files waiting in the engine for a retry, with when it is due.
    var retrying: [Int: Date] = [:]
    /// Files the user asked for now; the next round starts them whatever their schedule says.
    var requestedNow: Set<String> = []
    /// Feed fetches under way, by id (phase 1; see SyncDriver+Feeds).
    var feedFetches: [Int: FeedFetch] = [:]
    /// The episode each episode file's transfer is for, by the file's path.
    var episodeTransfers: [String: EpisodeTransfer] = [:]
    /// The feeds fetched so far, by folder.
    var checkedFeeds: Set<String> = []
    /// Ids of the transfers started because the user asked (`start`): while any is pending,
    /// a suspend waits for them (``runsWorkTheUserAskedFor``).
    var askedFor: Set<Int> = []
    /// A cap on all transfers together in bytes per second that wins over the manifest's,
    /// in either mode (`--once --limit-rate`).
    public var limitRate: Int64?
    /// Until when the bandwidth cap last applied holds; `nil`: work it out again.
    var bandwidthCapUntil: Date?
    /// The results of the batch under way.
    private var results = BatchResults()
    /// The first state write that failed since ``takeStateError()`` was last called.
    private var stateError: StateStoreError?
    /// Whether the agent counts as offline, and when to try again (the agent's mode only).
    var offline = OfflineTracker()
    /// The monitor's conditions at the last round, for the offline tracker.
    var plannedConditions = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false)
    /// Transfers to take out of the engine after its step: they wait for a network.
    var offlineCancellations: [Int] = []
    /// Not before when ``pruneStaleRecordsIfDue()`` looks at the state again.
    var nextPruneLook: Date?

    /// The engine, once something made it (see ``engine``); `nil` until then. What only asks
    /// about transfers reads this: with no engine, nothing is pending and nothing runs.
    private(set) var madeEngine: TransferEngine?

    /// Drives every transfer; made, on the driver's thread, when the first transfer is handed
    /// to it (or its ``waker`` is asked for), with the limits and retry policy of the manifest
    /// in force. Making it sets libcurl up, which opens libcurl and some thirty libraries
    /// behind it: a dry run, or a round that starts nothing, never does.
    var engine: TransferEngine {
        if let madeEngine { return madeEngine }
        let engine = TransferEngine(limits: manifest?.limits ?? Manifest.Limits(), retry: manifest?.retry ?? Manifest.RetryPolicy(), options: options) {
            [unowned self] event in handle(event)
        }
        engine.makeDeferredRequest = { [unowned self] id, ticket in makeRequest(id: id, ticket: ticket) }
        madeEngine = engine
        return engine
    }

    /// The ids of the transfers the engine holds (see ``TransferEngine/pendingIDs``); none
    /// before it is made.
    var pendingIDs: Set<Int> { madeEngine?.pendingIDs ?? [] }

    /// - Parameters:
    ///   - timeZone: the zone schedules are local to, evaluated when a round first needs it.
    ///   - now: the wall-clock time, for schedules and the saved results (injected so tests
    ///     can move it).
    ///   - observe: every transfer event, after the ledger recorded it, with the file it is
    ///     about.
    public init(
        store: StateStore, mode: Mode, options: TransferOptions = TransferOptions(), timeZone: @autoclosure @escaping () -> TimeZone = .current,
        now: @escaping () -> Date = Date.init, observe: @escaping (TransferEvent, TrackedFile) -> Void = { _, _ in }
    ) {
        self.store = store
        self.mode = mode
        self.options = options
        currentTimeZone = timeZone
        self.now = now
        self.observe = observe
        self.ledger = TransferLedger(store: store, now: now)
    }

    /// Makes `manifest` the one in force: its limits and retry policy apply to transfers
    /// admitted from now on, and the next round plans its files.
    public func use(_ manifest: Manifest) {
        // A waiting transfer's ticket is its place in the files of the manifest in force: one
        // that changes makes their requests first, from the manifest they were planned with.
        if let previous = self.manifest, previous.files != manifest.files || previous.destination != manifest.destination {
            madeEngine?.makeDeferredRequests()
            results.makeWhole(toldWith: previous)
            // Places in the old files mean nothing in the new: these results are kept whole.
            for id in inFlight.keys { inFlight[id]?.place = nil }
        }
        self.manifest = manifest
        // An engine made later takes them from the manifest.
        madeEngine?.limits = manifest.limits
        madeEngine?.retry = manifest.retry
        bandwidthCapUntil = nil
        planRequested = true
    }

    // MARK: Scheduling

    /// One scheduling round: starts what is due now under `conditions` (`nil`: favourable) and
    /// returns when a waiting file can start by time alone.
    public func plan(conditions: Conditions?) throws(StateStoreError) -> Date? {
        planRequested = false
        guard let manifest else { return nil }
        let now = now()
        plannedConditions = conditions ?? .favourable
        let (planning, networkRetry) = offline.planningConditions(plannedConditions, at: now)
        // Phase 1: due feeds first; their episodes and the due files wait for the last of them.
        if try startDueFeeds(of: manifest, at: now, conditions: planning) || isFetchingFeeds { return nil }
        let round = try candidates(of: manifest)
        heldFiles = try heldFeeds(of: manifest) + heldOutsideFeeds(round.held, in: manifest)
        // A zone is needed only when some file's time rules apply; the fixed GMT stands in,
        // unread, when none does (every file of `--once`).
        let zone = Scheduler.readsTimeZone(planning: round.files) ? timeZone : .gmt
        var plan = Scheduler(timeZone: zone).plan(round.files, at: now, conditions: planning)
        if let networkRetry, plan.waiting.contains(where: { $0.reason == .waitingForNetwork }) {
            plan.nextWake = min(plan.nextWake ?? networkRetry, networkRetry)
        }
        waiting = Dictionary(plan.waiting.map { ($0.path, $0.reason) }, uniquingKeysWith: { $1 })
        // What a server may not name a file: the names of the manifest's files (a few
        // hundred bytes each, and only needed when some server names its file).
        takenNames = manifest.files.contains(where: \.nameFromServer) ? takenFileNames(in: manifest) : []
        // The engine makes each request only when its transfer can start (a round of 10,000
        // files holds 10,000 small items, not 10,000 requests and what they name).
        var starts: [DeferredTransfer] = []
        starts.reserveCapacity(plan.start.count)
        // Room for the round's ids at once: grown step by step, the table is rehashed a dozen times.
        ids.reserveCapacity(ids.count + plan.start.count)
        var candidate = 0
        for path in plan.start {
            // The plan keeps the candidates' order: each file to start is further on.
            while candidate < round.files.count, round.files[candidate].path != path { candidate += 1 }
            guard candidate < round.files.count else { break }
            let place = round.places[candidate]
            let id = id(for: path)
            // The entry read in place: a copy retained and released its five strings.
            if place >= manifest.files.count { plannedEpisodes[id] = round.entries[place] }
            starts.append(DeferredTransfer(id: id, url: round.entries[place].url, ticket: place < manifest.files.count ? place : -1))
            if requestedNow.contains(path) { askedFor.insert(id) }
        }
        if !starts.isEmpty { engine.add(deferred: starts) }
        requestedNow = []
        // Never sooner than a moment from now: a plan that wakes in the past would spin.
        return plan.nextWake.map { max($0, now.addingTimeInterval(0.01)) }
    }

    /// What a scheduling round considers: the files of `manifest` and the episodes its feeds
    /// want, those not in transfer now, as the scheduler sees them, with their entries by
    /// path, and the files the user holds.
    func candidates(of manifest: Manifest) throws(StateStoreError) -> RoundCandidates {
        let episodes = try wantedEpisodes(of: manifest)
        for (entry, episode) in episodes { episodeTransfers[manifest.destinationPath(of: entry)] = episode }
        // The manifest's own array when there are no episodes: no copy of 10,000 entries.
        let all = episodes.isEmpty ? manifest.files : manifest.files + episodes.map(\.entry)
        let paths = all.map { manifest.destinationPath(of: $0) }
        if mode == .everyFileNow {
            // One query costs less than thousands; in this mode nobody else writes meanwhile.
            // Episodes join after their feed's check, so each round reads what is new to it.
            try ledger.readRecords(forPaths: paths, urls: { all[$0].url })
        }
        var round = RoundCandidates(entries: all)
        // Room for every entry at once: grown by doubling, 10,000 candidates (1.4 MB) would
        // be copied a dozen times, the old storage and the new alive together at each step.
        round.files.reserveCapacity(all.count)
        round.places.reserveCapacity(all.count)
        let pending = pendingIDs
        // By place, the entries read in the array: a zip copied each (five strings retained
        // and released).
        for place in all.indices {
            let path = paths[place]
            // Nothing pending (a batch's first round): no path hashed to find it among none.
            if !pending.isEmpty, let id = ids[path], pending.contains(id) { continue }
            // The entry's fields read in place: a copy of it retained and released five strings.
            let record = try ledger.record(forURL: all[place].url, at: path)
            if let hold = record?.hold {
                round.held.append((all[place], hold))
                continue
            }
            let requested = mode == .everyFileNow || requestedNow.contains(path)
            round.files.append(ledger.scheduledFile(schedule: all[place].schedule, at: path, record: record, requestedByUser: requested))
            round.places.append(place)
        }
        return round
    }

    /// See ``candidates(of:)``.
    struct RoundCandidates {
        /// The manifest's files, then the wanted episodes.
        var entries: [Manifest.Entry]
        var files: [ScheduledFile] = []
        /// Each of ``files``' place in ``entries``.
        var places: [Int] = []
        var held: [(entry: Manifest.Entry, hold: Hold)] = []
    }

    /// The engine id of `path` (a file's or a feed's folder), a new one if it has none.
    func id(for path: String) -> Int {
        let next = nextID
        // `next` is stored when the path has no id yet.
        let id = ids.inPlace(forKey: path, default: next) { $0 }
        if id == next { nextID += 1 }
        return id
    }

    /// Makes the request of a planned transfer when the engine can start it (see
    /// ``TransferEngine/add(deferred:)``): `ticket` is the file's place in the manifest, or
    /// -1 for an episode. The state is read and the disk asked now, not when it was planned.
    private func makeRequest(id: Int, ticket: Int) -> TransferRequest? {
        guard let manifest, let entry = plannedEntry(id: id, ticket: ticket, in: manifest) else { return nil }
        plannedEpisodes[id] = nil
        let path = manifest.destinationPath(of: entry)
        do throws(StateStoreError) {
            let request = try ledger.request(id: id, for: entry, at: path, root: manifest.destination, taken: takenNames)
            inFlight[id] = InFlightTransfer(request, title: entry.title, path: path, place: ticket >= 0 ? ticket : nil)
            return request
        } catch {
            stateError = stateError ?? error
            return nil
        }
    }

    /// The entry a planned transfer's ticket stands for.
    func plannedEntry(id: Int, ticket: Int, in manifest: Manifest) -> Manifest.Entry? {
        ticket >= 0 ? (ticket < manifest.files.count ? manifest.files[ticket] : nil) : plannedEpisodes[id]
    }

    /// The lowercased names of the files of `manifest` as kept on disk, the names their
    /// servers gave included, and of the folders in the destination they go in: a server
    /// may name its file none of them.
    private func takenFileNames(in manifest: Manifest) -> Set<String> {
        var names: Set<String> = []
        for entry in manifest.files {
            let path = manifest.destinationPath(of: entry)
            names.insert(splitPath(path).name.lowercased())
            if let folder = entry.path.split(separator: "/").first, folder != Substring(entry.path) { names.insert(folder.lowercased()) }
            if entry.nameFromServer, let kept = (try? ledger.record(for: entry, at: path))??.keptPath {
                names.insert(splitPath(kept).name.lowercased())
            }
        }
        return names
    }

    // MARK: Transfers

    /// Whether no transfer is queued, running, waiting for a retry or for its commit.
    public var isIdle: Bool { madeEngine?.isIdle ?? true }

    /// Whether a transfer the user asked for with `start` is still pending (running, queued,
    /// waiting for a retry or its commit): the agent then delays suspend.
    public var runsWorkTheUserAskedFor: Bool {
        guard !askedFor.isEmpty else { return false }
        askedFor.formIntersection(pendingIDs)
        return !askedFor.isEmpty
    }

    /// How many transfers are pending in the engine.
    public var pendingCount: Int { pendingIDs.count }

    /// The files whose transfers are pending, in manifest order: those whose requests are
    /// made, and those waiting to start.
    var pendingFiles: [TrackedFile] {
        let pending = pendingIDs
        guard let lowest = pending.min(), let highest = pending.max() else { return [] }
        // A slot per id from the lowest pending one to the highest (ids are given in a row and
        // never twice): the files come out in id order with no sort, and a deferred transfer's
        // ticket is found without hashing its id.
        var files = [TrackedFile?](repeating: nil, count: highest - lowest + 1)
        for id in pending {
            if let transfer = inFlight[id] { files[id - lowest] = TrackedFile(title: transfer.title, path: transfer.destination, url: transfer.url) }
        }
        let deferred = madeEngine?.deferredTransfers ?? []
        if let manifest, !deferred.isEmpty {
            var tickets = [Int?](repeating: nil, count: files.count)
            for (id, ticket) in deferred where tickets[id - lowest] == nil { tickets[id - lowest] = ticket }
            // The paths the ids are kept by: no second copy of each for the display.
            for (path, id) in ids where id >= lowest && id <= highest {
                guard let ticket = tickets[id - lowest], let entry = plannedEntry(id: id, ticket: ticket, in: manifest) else { continue }
                let kept = entry.nameFromServer ? ((try? ledger.record(for: entry, at: path)) ?? nil)?.keptPath ?? path : path
                files[id - lowest] = TrackedFile(title: entry.title, path: kept, url: entry.url)
            }
        }
        return files.compactMap { $0 }
    }

    /// Wakes ``step(until:watching:)`` from any thread; asking for it makes the engine (the
    /// agent does so as it starts, to hand it to the threads that wake its loop).
    public var waker: TransferEngine.Waker { engine.waker }

    /// Lets transfers run until one of `descriptors` is readable, `deadline` passes, or
    /// something happened; returns the readable descriptors.
    @discardableResult
    public func step(until deadline: ContinuousClock.Instant?, watching descriptors: [Int32] = []) -> Set<Int32> {
        let nearest = [deadline, ledger.saveDeadline].compactMap { $0 }.min()
        applyBandwidthCap()
        let readable = engine.step(until: nearest, watching: descriptors)
        cancelTransfersWaitingForNetwork()
        saveChanges(ifDueAt: .now)
        return readable
    }

    /// Stops every transfer, keeping partial downloads for the next run, and saves the state.
    public func stopAll() {
        madeEngine?.stopAll()
        feedFetches = [:]
        plannedEpisodes = [:]
        saveChanges()
    }

    /// Saves the results recorded so far, in one transaction.
    public func saveChanges() {
        saveChanges(ifDueAt: nil)
    }

    private func saveChanges(ifDueAt moment: ContinuousClock.Instant?) {
        do throws(StateStoreError) {
            if let moment { try ledger.saveChangesIfDue(at: moment) } else { try ledger.saveChanges() }
        } catch {
            stateError = stateError ?? error
        }
    }

    /// The first state write that failed since the last call, if any.
    public func takeStateError() -> StateStoreError? {
        defer { stateError = nil }
        return stateError
    }

    /// The batch that just ended, once the engine is idle; `nil` while transfers run or when
    /// nothing ran since the last batch.
    public func finishBatch() -> BatchReport? {
        guard isIdle else { return nil }
        // Nothing is pending, so no id stands for anything: the next round numbers afresh.
        ids = [:]
        guard !results.isEmpty, let manifest else { return nil }
        // A file downloaded or unchanged in this batch is known by its place: no path is
        // made and hashed for each of a batch's 10,000 files to find it in the batch.
        let told = results.places(amongFiles: manifest.files.count)
        let inBatch = results.wholePaths
        let finished = results.take(toldWith: manifest)
        var stillFailing: [BatchReport.StillFailing] = []
        for (place, entry) in manifest.files.enumerated() where !told[place] {
            let path = manifest.destinationPath(of: entry)
            guard !inBatch.contains(path), let record = try? ledger.record(for: entry, at: path),
                  record.hold == nil, let last = record.lastResult, last.kind == .failed
            else { continue }
            stillFailing.append(.init(title: entry.title, path: path, reason: last.message ?? "it failed"))
        }
        return BatchReport(results: finished, stillFailing: stillFailing, destination: manifest.destination)
    }

    /// Adds one transfer's end to the batch under way.
    func recordResult(_ result: FileResult) {
        results.add(result, place: nil)
    }

    /// Keeps the first state write that failed, for ``takeStateError()``.
    func recordStateError(_ error: StateStoreError) {
        stateError = stateError ?? error
    }

    private func handle(_ event: TransferEvent) {
        if handleFeedEvent(event) { return }
        // Found once: the transfer's progress is changed in place at `index` (nothing below
        // adds to or takes from `inFlight` before that, unless the network wait returns).
        guard let index = inFlight.index(forKey: event.id) else { return }
        // A finished transfer's entry is taken out, not copied (four strings retained and
        // released); the network wait that may follow takes out what is already gone.
        let transfer = if case .finished = event { inFlight.remove(at: index).value } else { inFlight.values[index] }
        guard !waitsForNetwork(after: event, of: transfer) else { return }
        do throws(StateStoreError) {
            try ledger.record(event, of: transfer, retry: manifest?.retry ?? Manifest.RetryPolicy())
        } catch {
            stateError = stateError ?? error
        }
        switch event {
        case .started(let id, let offset):
            // Hashing the id costs more than the rest of this for a batch with no retries.
            if !retrying.isEmpty { retrying[id] = nil }
            inFlight.values[index].progress = TransferProgress(received: offset, origin: .now)
        case .receiving(_, _, let offset, let expectedLength):
            inFlight.values[index].progress?.update(received: offset, expected: expectedLength, at: .now)
        case .progress(_, let received, let expectedLength):
            inFlight.values[index].progress?.update(received: received, expected: expectedLength, at: .now)
        case .willRetry(let id, let delay, _):
            inFlight.values[index].progress = nil
            retrying[id] = now().addingTimeInterval(delay.timeInterval)
        case .finished(_, let completion):
            if case .failed = completion.outcome { planRequested = true }
            // Hashing the path costs more than the rest of this for a batch without episodes.
            let episode = episodeTransfers.isEmpty ? nil : episodeTransfers.removeValue(forKey: transfer.destination)
            results.add(completion.outcome, place: episode == nil ? transfer.place : nil) {
                FileResult(title: transfer.title, path: transfer.destination, outcome: completion.outcome, feed: episode?.feed.title)
            }
            if let episode { recordEpisodeEnd(episode, outcome: completion.outcome) }
        }
        observe(event, TrackedFile(title: transfer.title, path: transfer.destination, url: transfer.url))
    }
}
