/// Brings many files up to date at once, through one libcurl multi handle on one thread;
/// whole downloads are put in place in groups on a second thread (``CommitThread``), so that
/// waiting for the disk's flushes never stops the transfers.
///
/// Admission is the engine's own: at most `limits.concurrent` transfers run, at most
/// `limits.perHost` per host, the rest wait in per-host queues taken round-robin. Between
/// events the thread sleeps in `curl_multi_poll` — until a socket or curl timer needs it, the
/// next retry is due, a watched descriptor is readable, or ``waker`` is used — so a waiting
/// engine costs no CPU.
///
/// Not thread-safe: create it and drive it from one thread (``run(_:)`` for one batch, or
/// ``add(_:)`` and ``step(until:watching:)`` for a long-running loop). Only ``waker`` may be
/// used from other threads.
public final class TransferEngine {
    /// Applies to transfers admitted from now on.
    public var limits: Manifest.Limits {
        didSet {
            multi.setMaximumConnectionsPerHost(limits.perHost)
            admittedOptions = nil
        }
    }
    /// How transient failures are retried inside the engine; applies from the next failure.
    public var retry: Manifest.RetryPolicy
    private let options: TransferOptions
    /// The options transfers are admitted with, made from ``options`` and ``limits`` when the
    /// first is admitted and again after the limits change: made for each, they were a copy
    /// of both (a few strings retained and released).
    private var admittedOptions: TransferOptions?
    private let unitRandom: () -> Double
    private let deliver: (TransferEvent) -> Void
    /// Where the bodies of transfers added with a sink go, by id, until they finish.
    private var sinks: [Int: any TransferBodySink] = [:]
    let clock = ContinuousClock()
    private let multi = CurlMulti()
    private var queue = Queue()
    /// Whole, checked downloads waiting to be put in place together.
    private var commits = CommitGroup()
    /// Puts groups of them in place while transfers go on, and wakes the engine when a group
    /// is done.
    private lazy var committer = CommitThread(onResults: { [waker = multi.waker] in waker.wake() })
    /// Handles of transfers that succeeded, reset for the next ones (see
    /// ``CurlEasy/resetForReuse()``); at most one per concurrent transfer.
    private var spareHandles: [CurlEasy] = []
    /// Connections' sockets, for downloads that check theirs (see ``Download``).
    private let sockets = ConnectionSockets()
    /// The direct-I/O blocks of all downloads together, under one cap (internal for tests:
    /// which downloads await their response's head).
    let blocks = DirectIOBlocks()
    /// The whole engine's bandwidth budget (see ``bytesPerSecond``).
    var budget = BandwidthBudget()
    /// Transfers paused because the budget could not pay for their next chunk, by id.
    var pausedForBudget: [Int: CurlEasy] = [:]
    /// Counts budget refills, to take turns in resuming.
    var budgetRound = 0

    /// The cap on all transfers together, in bytes per second; `nil`: unlimited. Applies at
    /// once, to running transfers too.
    public var bytesPerSecond: Int64? {
        get { budget.bytesPerSecond }
        set { budget.bytesPerSecond = newValue }
    }

    /// - Parameters:
    ///   - retry: how often a transient failure is retried inside the engine before it is
    ///     reported as finished; `attempts: 1` leaves retrying to the caller.
    ///   - unitRandom: jitter for retry waits, in 0..<1 (injected so tests can pin it).
    ///   - onEvent: every step of every transfer, on the engine's thread.
    public init(
        limits: Manifest.Limits,
        retry: Manifest.RetryPolicy,
        options: TransferOptions = TransferOptions(),
        unitRandom: @escaping () -> Double = { Double.random(in: 0..<1) },
        onEvent: @escaping (TransferEvent) -> Void
    ) {
        self.limits = limits
        self.retry = retry
        self.options = options
        self.unitRandom = unitRandom
        self.deliver = onEvent
        multi.setMaximumConnectionsPerHost(limits.perHost)
    }

    /// Runs these requests, and any already added, to their end — downloaded, unchanged, or
    /// failed after their retries — and returns when all are over.
    public func run(_ requests: [TransferRequest]) {
        add(requests)
        while !isIdle { step(until: nil) }
    }

    /// Queues requests; they start as the limits allow, at the next ``step(until:watching:)``.
    public func add(_ requests: [TransferRequest]) {
        for request in requests { queue.enqueue(request) }
    }

    /// Queues transfers whose requests are made only as each can start, by
    /// ``makeDeferredRequest``: a round of 10,000 files then holds 10,000 small items, not
    /// 10,000 requests. They take their turns exactly as requests added with ``add(_:)`` in
    /// the same order would; `url` only says which host's queue each joins.
    public func add(deferred transfers: [DeferredTransfer]) {
        for transfer in transfers { queue.enqueue(.deferred(id: transfer.id, ticket: transfer.ticket), url: transfer.url) }
    }

    /// Makes the request of a transfer added with ``add(deferred:)`` when it can start, from
    /// its id and ticket; `nil`: it is dropped, with no event.
    public var makeDeferredRequest: (_ id: Int, _ ticket: Int) -> TransferRequest? = { _, _ in nil }

    /// The transfers added with ``add(deferred:)`` whose requests are not made yet.
    public var deferredTransfers: [(id: Int, ticket: Int)] { queue.deferred }

    /// Makes the request of every deferred transfer now, keeping each one's place: for a
    /// caller about to change what its tickets mean.
    public func makeDeferredRequests() {
        queue.makeDeferredRequests(makeDeferredRequest)
    }

    /// Queues a request whose body goes to `sink` instead of a file (see ``TransferBodySink``).
    public func add(_ request: TransferRequest, into sink: any TransferBodySink) {
        sinks[request.id] = sink
        queue.enqueue(request)
    }

    /// Whether nothing runs, waits, is due for a retry, or is being put in place.
    public var isIdle: Bool { queue.isEmpty && commits.isEmpty && !committer.hasWork }

    /// The ids of the requests the engine holds: running, waiting, due for a retry, or
    /// downloaded and being put in place.
    public var pendingIDs: Set<Int> { queue.pendingIDs.union(commits.ids).union(committer.ids) }

    /// Does all that can be done now, then sleeps until something needs attention: a
    /// transfer, a retry that falls due, `deadline`, a readable descriptor in `watching`, or a
    /// ``waker`` call. Returns the descriptors that are readable.
    @discardableResult
    public func step(until deadline: ContinuousClock.Instant?, watching descriptors: [Int32] = []) -> Set<Int32> {
        admit()
        resumePausedTransfersIfDue()
        perform()
        let completed = collectCompletions() + collectCommitted() + handOverCommitIfDue()
        reportProgress()
        // Nothing left to write: the blocks kept for the next file go (an idle agent holds none).
        if queue.isEmpty { blocks.releaseSpareBlocks() }
        // Transfers that just ended may change what the caller wants next: no sleep now.
        if completed > 0 || queue.canAdmit(limits: limits) { return [] }
        // A group held back while another is put in place goes when the committer wakes us.
        let commitDue = committer.isBusy ? nil : commits.deadline
        var wake = [queue.nextRetryDue, commitDue, budgetWake].compactMap { $0 }.min()
        if let deadline { wake = min(wake ?? deadline, deadline) }
        // curl_multi_poll also wakes for its own timers, so a long cap costs nothing.
        var timeout = Duration.seconds(86_400)
        if let wake { timeout = min(timeout, max(.zero, wake - clock.now)) }
        do {
            let readable = try multi.poll(timeout: timeout, watching: descriptors)
            resumePausedTransfersIfDue()
            perform()
            collectCompletions()
            collectCommitted()
            return readable
        } catch {
            fatalError("curl_multi_poll failed: \(error)")
        }
    }

    /// Stops every transfer now and forgets every waiting request, keeping partial files so a
    /// later run resumes them. No events are reported for them. Downloads already whole are
    /// put in place first, and reported.
    public func stopAll() {
        settleCommits()
        sinks = [:]
        for download in queue.removeAll() {
            detachFromBudget(download.easy, id: download.request.id)
            multi.remove(download.easy)
            download.abandon()
        }
    }

    deinit {
        // Whole, checked files are put in place even when nobody waits for the news: the next
        // run finds them by their modification time.
        committer.finish()
        _ = CommitGroup.putInPlace(commits.takeMembers())
    }

    /// Cancels one request, running or waiting, without reporting an event for it. A running
    /// transfer's partial is kept when `keepPartial` and the server's validators allow a
    /// resume, and deleted otherwise. Returns whether the engine held the request.
    ///
    /// A download already whole is not cancelled: it is done. If it is still waiting to be put
    /// in place, or being put in place, that happens now and it is reported before this
    /// returns `false`, so that whatever the caller does next — `reset` deleting the
    /// manifest's files — comes after it, never before.
    @discardableResult
    public func cancel(id: Int, keepPartial: Bool) -> Bool {
        guard let removal = queue.remove(id: id) else {
            if commits.ids.contains(id) || committer.ids.contains(id) { settleCommits() }
            return false
        }
        sinks[id] = nil
        if case .running(let download) = removal {
            detachFromBudget(download.easy, id: id)
            multi.remove(download.easy)
            if keepPartial { download.abandon() } else { download.discard() }
        }
        return true
    }

    /// Lets another thread cut a ``step(until:watching:)`` short.
    public var waker: Waker { Waker(multi.waker) }

    /// Wakes a sleeping engine from any thread.
    public struct Waker: Sendable {
        private let wrapped: CurlMulti.Waker
        fileprivate init(_ wrapped: CurlMulti.Waker) { self.wrapped = wrapped }
        public func wake() { wrapped.wake() }
    }

    // MARK: Steps

    private func admit() {
        queue.requeueRetries(dueBy: clock.now)
        while let (item, host, place) = queue.nextAdmissible(limits: limits) {
            let request: TransferRequest
            switch item {
            case .ready(let ready): request = ready
            case .deferred(let id, let ticket):
                guard let made = makeDeferredRequest(id, ticket) else { continue }
                request = made
            }
            let easy = spareHandles.popLast() ?? CurlEasy()
            let options = admittedOptions ?? transferOptions()
            admittedOptions = options
            let id = request.id
            let url = request.url
            do {
                // Handed on, not copied (its nine strings retained and released).
                let download = try Download(request: consume request, host: host, easy: easy, options: options, sockets: sockets,
                                            blocks: blocks, sink: sinks[id], emit: { [unowned self] in onEvent($0) })
                attachToBudget(easy, id: id)
                try multi.add(easy)
                queue.started(download, host: place)
                onEvent(.started(id: id, offset: download.offset))
            } catch {
                detachFromBudget(easy, id: id)
                let failure = FailureClassification.failure(for: error, url: url)
                onEvent(.finished(id: id, TransferCompletion(outcome: .failed(failure))))
            }
        }
    }

    /// The options a transfer admitted now runs with: the engine's, with the limits' stall
    /// timeout and free-space margin.
    private func transferOptions() -> TransferOptions {
        var options = self.options
        if let stallTimeout = limits.stallTimeout { options.stallTimeout = stallTimeout }
        if let minimumFree = limits.minFree { options.minimumFree = minimumFree }
        return options
    }

    private func perform() {
        do {
            try multi.perform()
        } catch {
            // Only a misuse of the multi handle or memory exhaustion get here.
            fatalError("curl_multi_perform failed: \(error)")
        }
    }

    /// Hands each ended transfer to ``complete(_:error:)``; returns how many there were.
    @discardableResult
    private func collectCompletions() -> Int {
        let completed = multi.completedTransfers()
        for (easy, error) in completed {
            complete(easy, error: error)
        }
        return completed.count
    }

    private func complete(_ easy: CurlEasy, error: CurlError?) {
        multi.remove(easy)
        guard let download = queue.ended(easy) else { return }
        detachFromBudget(easy, id: download.request.id)
        defer {
            // After the verdict, which still reads the handle.
            if error == nil, spareHandles.count < limits.concurrent {
                easy.resetForReuse()
                spareHandles.append(easy)
            }
        }
        // The request is read where the download keeps it: a copy retained and released its
        // nine strings, for the few ends that queue it again.
        let id = download.request.id
        let attempt = queue.countAttempt(id)
        switch download.finish(curlError: error) {
        case .downloaded(let staged, let size, let validators):
            queue.forget(id)
            commits.add(CommitGroup.Member(id: id, file: staged, size: size, validators: validators), at: clock.now)
        case .received(let size, let validators):
            queue.forget(id)
            onEvent(.finished(id: id, TransferCompletion(
                outcome: .downloaded(bytes: size), validators: validators, size: size, movedPermanentlyTo: download.permanentMove
            )))
        case .notModified:
            queue.forget(id)
            onEvent(.finished(id: id, TransferCompletion(outcome: .unchanged, validators: download.request.current, movedPermanentlyTo: download.permanentMove)))
        case .restartFromZero:
            if queue.allowRestart(id) {
                var request = download.request
                request.partial = nil
                queue.enqueue(request)
            } else {
                queue.forget(id)
                let failure = TransferFailure(.truncated, "the server kept changing the file while it was being downloaded")
                onEvent(.finished(id: id, TransferCompletion(outcome: .failed(failure))))
            }
        case .failed(let failure, let partial):
            fail(download.request, failure, partial: partial, attempt: attempt)
        case .retryOnNewConnection(let failure):
            // Nothing was written: the request goes again as it was, partial included.
            if queue.allowRestart(id) {
                queue.enqueue(download.request)
            } else {
                fail(download.request, failure, partial: download.request.partial, attempt: attempt)
            }
        }
    }

    /// Retries a failed request after its backoff, or reports it failed when retries are over.
    private func fail(_ request: TransferRequest, _ failure: TransferFailure, partial: Validators?, attempt: Int) {
        var request = request
        if let delay = RetryBackoff(policy: retry).delay(afterAttempt: attempt, cause: failure.retryCause, unitRandom: unitRandom()) {
            request.partial = partial
            queue.retry(request, at: clock.now + delay)
            onEvent(.willRetry(id: request.id, delay: delay, failure: failure))
        } else {
            queue.forget(request.id)
            onEvent(.finished(id: request.id, TransferCompletion(outcome: .failed(failure), partial: partial)))
        }
    }

    /// Hands the waiting downloads to the committer when their group is due, as
    /// ``CommitGroup/next(at:moreComing:committerBusy:)`` says; returns how many downloads of
    /// an earlier group it reported, when it had to wait for them.
    private func handOverCommitIfDue() -> Int {
        switch commits.next(at: clock.now, moreComing: queue.isBusy, committerBusy: committer.isBusy) {
        case .gather:
            return 0
        case .handOver:
            committer.putInPlace(commits.takeMembers())
            return 0
        case .waitThenHandOver:
            let results = committer.waitForResults()
            report(results)
            committer.putInPlace(commits.takeMembers())
            return results.count
        }
    }

    /// Puts every whole download in place now, those handed over first, and reports them.
    private func settleCommits() {
        committer.putInPlace(commits.takeMembers())
        report(committer.waitForResults())
    }

    /// Reports the downloads the committer has put in place since the last call; returns how
    /// many there were.
    @discardableResult
    private func collectCommitted() -> Int {
        let results = committer.takeResults()
        report(results)
        return results.count
    }

    /// Reports downloads put in place, or why each could not be.
    private func report(_ results: [CommitThread.Result]) {
        for (member, failure) in results {
            let completion = failure.map { TransferCompletion(outcome: .failed($0)) }
                ?? TransferCompletion(outcome: .downloaded(bytes: member.size), validators: member.validators, size: member.size, keptAt: member.file.destination)
            onEvent(.finished(id: member.id, completion))
        }
    }

    /// Reports `event`; a finished transfer's sink is let go.
    private func onEvent(_ event: TransferEvent) {
        if case .finished(let id, _) = event { sinks[id] = nil }
        deliver(event)
    }

    private func reportProgress() {
        let now = clock.now
        guard now - queue.lastProgressReport >= options.progressInterval else { return }
        queue.lastProgressReport = now
        for download in queue.activeDownloads where queue.progressChanged(download) {
            onEvent(.progress(id: download.request.id, received: download.received, expectedLength: download.expectedLength))
        }
    }
}
