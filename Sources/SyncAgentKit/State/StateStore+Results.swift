/// Saving a re-check's result: the columns of the result only.
extension StateStore {
    /// Updates the result columns (``FileRecord/failedAttempts``, ``FileRecord/lastResult``,
    /// ``FileRecord/nextAttempt``) of each record's row, and nothing else. A re-check that
    /// finds 10,000 files unchanged changes only these: updating five columns spares SQLite
    /// the upsert's failed insert and the `CHECK`s of the other columns (about 14,000
    /// instructions a row instead of 17,000), and binding 6 values instead of 16. A row that
    /// is gone (`reset` meanwhile) is saved whole again, as an upsert would.
    func updateResults(_ records: [FileRecord]) throws(SQLiteError) {
        guard !records.isEmpty else { return }
        var gone: [FileRecord] = []
        try database.withStatement(Self.updateResultSQL) { statement throws(SQLiteError) in
            for record in records {
                try statement.bind(record.path, at: 1)
                try record.bindResult(to: statement, failedAttemptsAt: 2)
                try statement.run()
                statement.rewind()
                if database.changes == 0 { gone.append(record) }
            }
        }
        try upsert(gone, with: Self.upsertKeepingHoldSQL)
    }

    private static let updateResultSQL = """
        UPDATE files SET failed_attempts = ?2, last_result_kind = ?3, last_result_message = ?4,
        last_result_date = ?5, next_attempt = ?6 WHERE path = ?1
        """
}
