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
        // Those running or due for a retry, and those waiting to start (no request made yet).
        var transfers = inFlight.map { (id: $0.key, title: $0.value.title, path: $0.value.destination) }
        for (id, ticket) in madeEngine?.deferredTransfers ?? [] {
            guard let entry = plannedEntry(id: id, ticket: ticket, in: manifest) else { continue }
            transfers.append((id, entry.title, manifest.destinationPath(of: entry)))
        }
        var paused: [String] = []
        for transfer in transfers.sorted(by: { $0.id < $1.id }) where discretionary.contains(transfer.path) && !askedFor.contains(transfer.id) {
            guard cancelTransfer(transfer.id, keepPartial: true) else { continue }
            paused.append(transfer.title)
        }
        if !paused.isEmpty { planRequested = true }
        return paused
    }
}
