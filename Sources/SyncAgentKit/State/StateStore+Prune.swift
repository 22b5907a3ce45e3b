import FoundationEssentials

/// Forgetting the records no entry of the manifest owns (see ``RecordRetention``).
extension StateStore {
    /// When the state was last pruned, by any process; `nil` when never.
    public func lastPrune() throws(StateStoreError) -> Date? {
        try perform("read when the saved state was last pruned") { () throws(SQLiteError) in try lastPruneRun() }
    }

    private func lastPruneRun() throws(SQLiteError) -> Date? {
        try database.withStatement("SELECT last_run FROM upkeep WHERE task = 'prune'") { statement throws(SQLiteError) in
            try statement.step() == .row ? statement.double(at: 0).map(Date.init(timeIntervalSince1970:)) : nil
        }
    }

    /// If `retention` says a prune is due at `now` (by the last prune of any process sharing
    /// the state; a state never pruned only notes `now` as the first), forgets the records
    /// that no entry of the manifest owns and `retention` lets go — a feed with its episodes
    /// and their keys — and remembers `now` as the last prune, all in one transaction: after a
    /// crash, either the prune happened or nothing changed. A prune that leaves most of the
    /// file free then gives the space back (``compactIfMostlyFree()``).
    ///
    /// - Parameters:
    ///   - files: the paths of the manifest's files, whose records stay; made only if the
    ///     prune is due (once a day at most), not at the end of every batch: 10,000 of them
    ///     are a megabyte at the moment a batch's memory peaks.
    ///   - feeds: the folders of the manifest's feeds, whose records, episodes and files'
    ///     records stay; made only if the prune is due.
    ///   - partialTouched: when the partial download of the file kept at a path was last
    ///     written, `nil` when there is none; asked only of records that say they have one.
    /// - Returns: when the last prune ran (`now` if this one did), and what this one forgot
    ///   (`nil` when it was not due).
    @discardableResult
    public func pruneRecordsIfDue(
        ownedBy files: @autoclosure () -> [String], feeds: @autoclosure () -> [String], retention: RecordRetention, now: Date,
        partialTouched: (String) -> Date?
    ) throws(StateStoreError) -> (lastRun: Date, verdict: RecordRetention.Verdict?) {
        let result = try pruneInOneTransaction(ownedBy: files, feeds: feeds, retention: retention, now: now, partialTouched: partialTouched)
        if let verdict = result.verdict, !(verdict.files.isEmpty && verdict.feeds.isEmpty) {
            // The prune is done and saved; a compaction that cannot run now (another process
            // reading, a full disk) leaves the free pages to be reused by later records.
            try? compactIfMostlyFree()
        }
        return result
    }

    /// Rewrites the database without its free pages when they are over half of it: SQLite
    /// reuses freed pages but never gives them back by itself. `VACUUM` copies what is live,
    /// which is then the smaller part, so it costs little exactly when it is worth doing.
    func compactIfMostlyFree() throws(StateStoreError) {
        try perform("compact the saved state") { () throws(SQLiteError) in
            guard case .integer(let free) = try database.singleValue("PRAGMA freelist_count"),
                  case .integer(let pages) = try database.singleValue("PRAGMA page_count"), free * 2 > pages
            else { return }
            try database.execute("VACUUM")
        }
    }

    private func pruneInOneTransaction(
        ownedBy files: () -> [String], feeds: () -> [String], retention: RecordRetention, now: Date,
        partialTouched: (String) -> Date?
    ) throws(StateStoreError) -> (lastRun: Date, verdict: RecordRetention.Verdict?) {
        try perform("forget the saved state of files and feeds no longer in the manifest") { () throws(SQLiteError) in
            // Most calls end here, without taking the write lock.
            if let lastRun = try lastPruneRun(), !retention.isDue(lastRun: lastRun, now: now) { return (lastRun, nil) }
            return try database.transaction { () throws(SQLiteError) -> (lastRun: Date, verdict: RecordRetention.Verdict?) in
                // Again under the write lock: another process sharing the state may just have pruned.
                let lastRun = try lastPruneRun()
                if let lastRun, !retention.isDue(lastRun: lastRun, now: now) { return (lastRun, nil) }
                guard lastRun != nil else {
                    try notePrune(at: now)
                    return (now, nil)
                }
                let feeds = feeds()
                let unownedFeeds = try unownedFeeds(notIn: feeds)
                let goneFeeds = unownedFeeds.filter { retention.expires($0, at: now) }.map(\.key)
                let candidates = try unownedFiles(
                    notIn: files(), untouchedSince: retention.cutoff(at: now), orIn: goneFeeds, partialTouched: partialTouched
                )
                let verdict = retention.verdict(files: candidates, feeds: unownedFeeds, liveFeeds: Set(feeds), now: now)
                for table in ["episode_keys", "episodes"] {
                    try delete(from: table, where: "feed", in: verdict.feeds)
                }
                try delete(from: "feeds", where: "folder", in: verdict.feeds)
                try delete(from: "files", where: "path", in: verdict.files)
                try notePrune(at: now)
                return (now, verdict)
            }
        }
    }

    private func notePrune(at now: Date) throws(SQLiteError) {
        let sql = "INSERT INTO upkeep (task, last_run) VALUES ('prune', ?1) ON CONFLICT (task) DO UPDATE SET last_run = excluded.last_run"
        try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(SQLiteValue(now.timeIntervalSince1970), at: 1)
            try statement.run()
        }
    }

    /// The file records whose paths are not among `owned` that the policy may let go, as it
    /// sees them: those not held and untouched since `cutoff` by their last attempt (a later
    /// write to their partial download may still keep them), and every one in the folders of
    /// `goneFeeds`. The others stay whatever the policy says, so they are not read: a daily
    /// prune of a state that keeps 11,000 records of other manifests reads none of them.
    private func unownedFiles(
        notIn owned: [String], untouchedSince cutoff: Date, orIn goneFeeds: [String], partialTouched: (String) -> Date?
    ) throws(SQLiteError) -> [RecordRetention.Unowned] {
        let ownedList = SQLiteValue(JSONStringArray.text(owned))
        let notOwned = "path NOT IN (SELECT value FROM json_each(?1))"
        let columns = "SELECT path, served_name, hold IS NOT NULL, last_result_date, partial_present FROM files"
        let expired = "hold IS NULL AND (last_result_date IS NULL OR last_result_date <= ?2)"
        var unowned: [RecordRetention.Unowned] = []
        func read(_ statement: SQLiteStatement) throws(SQLiteError) {
            while try statement.step() == .row {
                guard let path = statement.text(at: 0) else { continue }
                var touched = statement.double(at: 3).map(Date.init(timeIntervalSince1970:))
                if statement.int64(at: 4) == 1 {
                    let kept = FileRecord(path: path, url: "", servedName: statement.text(at: 1)).keptPath
                    if let written = partialTouched(kept) { touched = max(touched ?? written, written) }
                }
                unowned.append(.init(key: path, held: statement.int64(at: 2) == 1, lastTouched: touched))
            }
        }
        let cutoffValue = SQLiteValue(cutoff.timeIntervalSince1970)
        // In path order, as the verdict lists them (the table itself is in the order rows came).
        try database.withStatement("\(columns) WHERE \(expired) AND \(notOwned) ORDER BY path") { statement throws(SQLiteError) in
            try statement.bind([ownedList, cutoffValue])
            try read(statement)
        }
        // A folder's paths sort between "FOLDER/" and "FOLDER0" ("0" follows "/" in byte order);
        // those the first query read are not read again.
        let inFolder = "\(columns) WHERE path > ?3 AND path < ?4 AND NOT (\(expired)) AND \(notOwned) ORDER BY path"
        try database.withStatement(inFolder) { statement throws(SQLiteError) in
            for folder in goneFeeds {
                try statement.bind([ownedList, cutoffValue, SQLiteValue(folder + "/"), SQLiteValue(folder + "0")])
                try read(statement)
                statement.reset()
            }
        }
        return unowned
    }

    /// The feed records whose folders are not among `owned`, touched by their last check.
    private func unownedFeeds(notIn owned: [String]) throws(SQLiteError) -> [RecordRetention.Unowned] {
        let sql = "SELECT folder, hold IS NOT NULL, last_check FROM feeds WHERE folder NOT IN (SELECT value FROM json_each(?1))"
        return try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(SQLiteValue(JSONStringArray.text(owned)), at: 1)
            var unowned: [RecordRetention.Unowned] = []
            while try statement.step() == .row {
                guard let folder = statement.text(at: 0) else { continue }
                unowned.append(.init(key: folder, held: statement.int64(at: 1) == 1,
                                     lastTouched: statement.double(at: 2).map(Date.init(timeIntervalSince1970:))))
            }
            return unowned
        }
    }

    /// Deletes the rows whose `column` is one of `keys`, one key at a time through one
    /// prepared statement: cheaper than the same keys as a JSON list, which SQLite would parse
    /// and gather before deleting.
    private func delete(from table: String, where column: String, in keys: [String]) throws(SQLiteError) {
        guard !keys.isEmpty else { return }
        try database.withStatement("DELETE FROM \(table) WHERE \(column) = ?1") { statement throws(SQLiteError) in
            for key in keys {
                try statement.bind(SQLiteValue(key), at: 1)
                try statement.run()
                statement.reset()
            }
        }
    }
}
