extension SyncDriver {
    /// Pauses the discretionary transfers in flight that `conditions` no longer allow (on
    /// battery, a metered network), as WorkManager stops running work whose constraints fail:
    /// each is taken out of the engine keeping its partial download, nothing is recorded as a
    /// result, and the next scheduling round makes it wait for the conditions; when they come
    /// back it continues with a `Range` request. Transfers the user started are left alone.
    /// Returns the titles of the files paused.
    public func pauseDiscretionaryTransfers(under conditions: Conditions) -> [String] {
        guard mode == .onSchedule, !conditions.allowDiscretionaryWork, let manifest else { return [] }
        let discretionary = Set(manifest.files.filter(\.schedule.discretionary).map { manifest.destinationPath(of: $0) })
        var paused: [String] = []
        for (id, transfer) in inFlight.sorted(by: { $0.key < $1.key })
        where discretionary.contains(transfer.destination) && !askedFor.contains(id) {
            guard engine.cancel(id: id, keepPartial: true) else { continue }
            inFlight[id] = nil
            progress[id] = nil
            retrying[id] = nil
            paused.append(transfer.title)
        }
        if !paused.isEmpty { planRequested = true }
        return paused
    }
}
