extension SyncDriver {
    /// How a batch run with ``runOneBatch(stoppingOn:)`` ended.
    public enum BatchEnd {
        /// Every transfer is over; the report is `nil` when no file was tried.
        case finished(BatchReport?)
        /// A stop request ended it. The files still in transfer then, by title: those whose
        /// partial download the next run continues, and those it starts over.
        case interrupted(resuming: [String], startingOver: [String])
    }

    /// One batch to its end, as `syncagent --once` runs it: one scheduling round, then
    /// transfers until all are over or `requests` asks to stop. The state is saved either way.
    /// `planned` is told the files the round started, before any transfer event, so a progress
    /// display knows the whole batch from the start.
    public func runOneBatch(
        stoppingOn requests: (any LoopRequests)?, planned: ([TrackedFile]) -> Void = { _ in }
    ) throws(StateStoreError) -> BatchEnd {
        _ = try plan(conditions: nil)
        if isFetchingFeeds {
            // Phase 1, feeds; then the round that starts their new episodes and the files.
            if let end = try runUntilIdle(stoppingOn: requests) { return end }
            _ = try plan(conditions: nil)
        }
        planned(pendingFiles)
        if let end = try runUntilIdle(stoppingOn: requests) { return end }
        saveChanges()
        if let error = takeStateError() { throw error }
        let report = finishBatch()
        // The batch's results are saved; a prune that fails changed nothing, and the next
        // batch tries again, so its failure does not fail this one.
        _ = try? pruneStaleRecordsIfDue()
        return .finished(report)
    }

    /// Steps until every transfer is over (nil), or a stop request ended them.
    private func runUntilIdle(stoppingOn requests: (any LoopRequests)?) throws(StateStoreError) -> BatchEnd? {
        let watched = requests.map { [$0.descriptor] } ?? []
        while !isIdle {
            let readable = step(until: nil, watching: watched)
            if let requests, readable.contains(requests.descriptor), requests.take().contains(.stop) {
                let unfinished = pendingFiles
                stopAll()
                if let error = takeStateError() { throw error }
                let resuming = unfinished.filter { ledger.resumes($0.path) }
                return .interrupted(
                    resuming: resuming.map(\.title),
                    startingOver: unfinished.filter { !resuming.contains($0) }.map(\.title)
                )
            }
        }
        return nil
    }
}
