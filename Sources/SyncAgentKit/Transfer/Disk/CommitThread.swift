/// Puts groups of whole downloads in place on a thread of its own, one group after another,
/// so that the engine's thread goes on receiving while a group waits for the device.
///
/// Putting a group in place is mostly waiting: two flushes (``FileSystem/makeDurable(_:)``),
/// each as long as the device takes to empty its cache, and a link or rename per file. On the
/// engine's thread, every group stopped all transfers for that long — 10,000 small files are
/// about 80 flushes. Here the engine hands a group over and carries on; the group's results
/// come back through ``takeResults()``, and ``CommitGroup``'s order of steps is unchanged, so
/// the engine still reports a file done only once it is durable in place.
///
/// Groups are put in place in the order they were handed over. Built on a plain thread and a
/// condition variable, not on Dispatch (see ``startDetachedThread(named:_:)``); the thread is
/// started by the first group and sleeps, costing nothing, until the next one or ``finish()``.
final class CommitThread: @unchecked Sendable {
    typealias Result = (member: CommitGroup.Member, failure: TransferFailure?)

    /// Called on the commit thread each time a group's results are ready (the engine's waker),
    /// never after ``finish()`` has returned.
    private let onResults: @Sendable () -> Void
    /// What putting a group in place is: ``CommitGroup/putInPlace(_:)``, unless a test says.
    private let putGroupInPlace: @Sendable ([CommitGroup.Member]) -> [Result]
    private let condition = ConditionLock()
    /// Guarded by `condition`: groups handed over and not yet put in place, oldest first; the
    /// first is being put in place.
    private var groups: [[CommitGroup.Member]] = []
    /// Guarded by `condition`: the results of groups put in place, not yet taken.
    private var results: [Result] = []
    /// Guarded by `condition`.
    private var started = false
    /// Guarded by `condition`.
    private var finishing = false

    init(putInPlace: @escaping @Sendable ([CommitGroup.Member]) -> [Result] = CommitGroup.putInPlace,
         onResults: @escaping @Sendable () -> Void) {
        self.putGroupInPlace = putInPlace
        self.onResults = onResults
    }

    /// Queues a group to be put in place after those already queued.
    func putInPlace(_ group: [CommitGroup.Member]) {
        guard !group.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        precondition(!finishing, "a group handed to a finished commit thread")
        groups.append(group)
        if !started {
            started = true
            startDetachedThread(named: "syncagent.commit") { [self] in serve() }
        }
        condition.broadcast()
    }

    /// Whether a group is queued or being put in place.
    var isBusy: Bool {
        condition.withLock { !groups.isEmpty }
    }

    /// Whether there is anything the engine has not heard of yet: a group queued or being put
    /// in place, or results not taken.
    var hasWork: Bool {
        condition.withLock { !groups.isEmpty || !results.isEmpty }
    }

    /// The ids of the downloads queued or being put in place, or put in place and not taken.
    var ids: [Int] {
        condition.withLock { groups.joined().map(\.id) + results.map(\.member.id) }
    }

    /// The results of the groups put in place since the last call, in the order of the groups.
    func takeResults() -> [Result] {
        condition.withLock {
            defer { results = [] }
            return results
        }
    }

    /// Waits until every group handed over is put in place, then returns every result not
    /// taken yet.
    func waitForResults() -> [Result] {
        condition.lock()
        defer { condition.unlock() }
        while !groups.isEmpty { condition.wait() }
        defer { results = [] }
        return results
    }

    /// Waits for the groups handed over and lets the thread end; results not taken are dropped.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        while !groups.isEmpty { condition.wait() }
        finishing = true
        results = []
        condition.broadcast()
    }

    private func serve() {
        while true {
            condition.lock()
            while groups.isEmpty && !finishing { condition.wait() }
            guard let group = groups.first else {
                condition.unlock()
                return
            }
            condition.unlock()
            let done = putGroupInPlace(group)
            condition.lock()
            groups.removeFirst()
            // Taken whole when nothing waits (as usual: the engine takes results as they come);
            // appended, each result was copied and the original freed.
            if results.isEmpty { results = done } else { results += done }
            // Under the lock, so that ``finish()`` cannot return, and the engine's waker go
            // with the engine, before the wake is sent.
            onResults()
            condition.broadcast()
            condition.unlock()
        }
    }
}
