/// The agent's share of keeping the state small: while nothing transfers, the driver forgets
/// the records of files and feeds that left the manifest long ago (``RecordRetention``).
extension Agent {
    /// Prunes the state if a day has passed since the last prune, and logs what it forgot.
    func pruneStaleRecords() {
        do {
            guard let verdict = try driver.pruneStaleRecordsIfDue(), !(verdict.files.isEmpty && verdict.feeds.isEmpty) else { return }
            let forgotten = "\(counted(verdict.files.count, "file")) and \(counted(verdict.feeds.count, "feed"))"
            logger.info("forgot the saved state of \(forgotten) no longer in the manifest")
        } catch {
            // Nothing changed; the next idle moment tries again.
            logger.warning("\(error.description)")
        }
    }
}
