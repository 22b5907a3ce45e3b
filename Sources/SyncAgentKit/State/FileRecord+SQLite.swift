import FoundationEssentials

/// How a ``FileRecord`` maps onto a row of the `files` table (see ``StateSchema``).
extension FileRecord {
    /// The table's columns in the order ``sqliteValues`` binds them and ``init(row:)`` reads them.
    static let sqliteColumns = [
        "path", "url", "etag", "last_modified", "size",
        "partial_present", "partial_etag", "partial_last_modified",
        "failed_attempts", "last_result_kind", "last_result_message", "last_result_date",
        "next_attempt", "hold", "served_name", "partial_length",
    ]

    /// The record's values for ``sqliteColumns``.
    ///
    /// Dates are Unix time in seconds, as a double: exact for a date made from Unix time, and
    /// within a fraction of a microsecond for others (`Date` counts from 2001, and moving the
    /// origin rounds to the nearest double).
    var sqliteValues: [SQLiteValue] {
        [
            SQLiteValue(path), SQLiteValue(url),
            SQLiteValue(validators.etag), SQLiteValue(validators.lastModified),
            SQLiteValue(size),
            SQLiteValue(partial != nil), SQLiteValue(partial?.etag), SQLiteValue(partial?.lastModified),
            SQLiteValue(failedAttempts),
            SQLiteValue(lastResult?.kind.rawValue), SQLiteValue(lastResult?.message),
            SQLiteValue(lastResult?.date.timeIntervalSince1970),
            SQLiteValue(nextAttempt?.timeIntervalSince1970),
            SQLiteValue(hold?.rawValue),
            SQLiteValue(servedName),
            SQLiteValue(partial == nil ? nil : partialLength),
        ]
    }

    /// Reads the record from the current row of a statement that selects ``sqliteColumns``.
    ///
    /// Throws ``SQLiteError/Code/corrupt`` for values the schema's constraints rule out.
    init(row: SQLiteStatement) throws(SQLiteError) {
        guard let path = row.text(at: 0), let url = row.text(at: 1) else {
            throw SQLiteError(code: .corrupt, message: "a saved file has no path or no URL")
        }
        var lastResult: LastResult?
        if let kindName = row.text(at: 9) {
            guard let kind = LastResult.Kind(rawValue: kindName), let time = row.double(at: 11) else {
                throw SQLiteError(code: .corrupt, message: "the saved last result of \(path) is unreadable")
            }
            lastResult = LastResult(kind: kind, message: row.text(at: 10), date: Date(timeIntervalSince1970: time))
        }
        self.init(
            path: path,
            url: url,
            validators: Validators(etag: row.text(at: 2), lastModified: row.text(at: 3)),
            size: row.int64(at: 4),
            partial: row.int64(at: 5) == 1 ? Validators(etag: row.text(at: 6), lastModified: row.text(at: 7)) : nil,
            failedAttempts: Int(row.int64(at: 8) ?? 0),
            lastResult: lastResult,
            nextAttempt: row.double(at: 12).map(Date.init(timeIntervalSince1970:)),
            hold: try row.text(at: 13).map { text throws(SQLiteError) in
                guard let hold = Hold(rawValue: text) else {
                    throw SQLiteError(code: .corrupt, message: "the saved hold of \(path) is unreadable")
                }
                return hold
            },
            servedName: row.text(at: 14),
            partialLength: row.int64(at: 15)
        )
    }
}
