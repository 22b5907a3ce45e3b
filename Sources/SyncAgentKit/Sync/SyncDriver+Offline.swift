import FoundationEssentials

extension SyncDriver {
    /// Why scheduled work waits for the network now (the agent logs each change once);
    /// `nil` when it does not.
    public var networkWait: NetworkWait? { offline.wait }

    /// Whether `event` means this file waits for a network rather than failed: its server's
    /// name did not resolve while the agent counts as offline (see ``OfflineTracker``). Such a
    /// transfer is taken out of the engine, keeping its partial, and left to a later round;
    /// nothing is recorded, logged or announced for it. Also tells the tracker of servers
    /// that answered.
    ///
    /// Only the agent waits for a network (``Mode/onSchedule``): with every file now, no name
    /// is ever taken as unresolved for want of one, so nothing that answered is worth noting
    /// either (a reading of the clock and a change of the tracker, twice a file).
    func waitsForNetwork(after event: TransferEvent, of transfer: InFlightTransfer) -> Bool {
        guard mode == .onSchedule else { return false }
        let failure: TransferFailure
        switch event {
        case .receiving:
            offline.serverAnswered(at: now())
            return false
        case .willRetry(_, _, let retried):
            failure = retried
        case .finished(_, let completion):
            guard case .failed(let failed) = completion.outcome else {
                offline.serverAnswered(at: now())
                return false
            }
            failure = failed
            // A status, a certificate, a checksum: a server answered, whatever it said.
            if !Self.failuresWithoutAnswer.contains(failed.code) { offline.serverAnswered(at: now()) }
        case .started, .progress:
            return false
        }
        guard failure.code == .nameNotResolved,
              offline.nameDidNotResolve(host: FailureClassification.hostName(of: transfer.url), under: plannedConditions, at: now())
        else { return false }
        if case .willRetry = event { offlineCancellations.append(event.id) }
        inFlight[event.id] = nil
        retrying[event.id] = nil
        planRequested = true
        return true
    }

    /// Failures in which no server may have answered at all.
    private static let failuresWithoutAnswer: Set<TransferFailure.Code> = [.network, .timeout, .nameNotResolved, .disk]

    /// Takes the transfers that wait for a network out of the engine; their partials stay.
    func cancelTransfersWaitingForNetwork() {
        for id in offlineCancellations { madeEngine?.cancel(id: id, keepPartial: true) }
        offlineCancellations = []
    }
}
