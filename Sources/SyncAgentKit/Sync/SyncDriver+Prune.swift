import FoundationEssentials

extension SyncDriver {
    /// Forgets the saved records of files and feeds the manifest in force no longer has, once
    /// ``RecordRetention/standard`` lets them go, at most once a day (by the last prune the state
    /// remembers, whichever process ran it). Called when a batch is over: it does nothing while
    /// a transfer is pending, with no manifest, or on a store opened to read only (a dry run).
    ///
    /// Returns what it forgot; `nil` when it did not run.
    @discardableResult
    public func pruneStaleRecordsIfDue() throws(StateStoreError) -> RecordRetention.Verdict? {
        guard !store.isReadOnly, isIdle, let manifest else { return nil }
        let retention = RecordRetention.standard
        let now = now()
        // The agent asks on every turn of its loop while idle; between two prunes, the answer
        // is known without reading the state. A clock set back looks again.
        if let look = nextPruneLook, now < look, look.timeIntervalSince(now) <= retention.interval.timeInterval { return nil }
        // A prune that failed (another process held the state past the busy timeout) is tried
        // again in an hour, not on every turn of the agent's loop.
        nextPruneLook = now.addingTimeInterval(3_600)
        let (lastRun, verdict) = try store.pruneRecordsIfDue(
            ownedBy: manifest.files.map { manifest.destinationPath(of: $0) }, feeds: manifest.feeds.map { manifest.folderPath(of: $0) },
            retention: retention, now: now,
            partialTouched: { kept in
                FileSystem.regularFileInfo(PartFile.path(for: kept)).map { Date(timeIntervalSince1970: TimeInterval($0.modificationTime)) }
            }
        )
        nextPruneLook = lastRun.addingTimeInterval(retention.interval.timeInterval)
        return verdict
    }
}
