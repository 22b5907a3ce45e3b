import FoundationEssentials
import Glibc

/// How a ``FileRecord`` maps onto a row of the `files` table (see ``StateSchema``).
extension FileRecord {
    /// The table's columns in the order ``bind(to:)`` binds them and ``init(row:)`` reads them.
    static let sqliteColumns = [
        "path", "url", "etag", "last_modified", "size",
        "partial_present", "partial_etag", "partial_last_modified",
        "failed_attempts", "last_result_kind", "last_result_message", "last_result_date",
        "next_attempt", "hold", "served_name", "partial_length",
    ]

    /// Binds the record's values to the parameters 1 to 16, in the order of ``sqliteColumns``:
    /// one typed call each, no array of values made per row (a batch binds 10,000 rows).
    ///
    /// Dates are Unix time in seconds, as a double: exact for a date made from Unix time, and
    /// within a fraction of a microsecond for others (`Date` counts from 2001, and moving the
    /// origin rounds to the nearest double).
    func bind(to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(path, at: 1)
        try statement.bind(url, at: 2)
        try statement.bind(validators.etag, at: 3)
        try statement.bind(validators.lastModified, at: 4)
        try statement.bind(size, at: 5)
        // Each of the rare fields is read from its box once.
        let partial = partial
        try statement.bind(Int64(partial == nil ? 0 : 1), at: 6)
        try statement.bind(partial?.etag, at: 7)
        try statement.bind(partial?.lastModified, at: 8)
        try bindResult(to: statement, failedAttemptsAt: 9)
        try statement.bind(hold?.rawValue, at: 14)
        try statement.bind(servedName, at: 15)
        try statement.bind(partial == nil ? nil : partialLength, at: 16)
    }

    /// Binds the result columns — `failed_attempts`, `last_result_kind`, `last_result_message`,
    /// `last_result_date`, `next_attempt` — to the five parameters from `first` on.
    func bindResult(to statement: SQLiteStatement, failedAttemptsAt first: Int32) throws(SQLiteError) {
        let lastResult = lastResult
        try statement.bind(Int64(failedAttempts), at: first)
        try statement.bind(lastResult?.kind.rawValue, at: first + 1)
        try statement.bind(lastResult?.message, at: first + 2)
        try statement.bind(lastResult?.date.timeIntervalSince1970, at: first + 3)
        try statement.bind(nextAttempt?.timeIntervalSince1970, at: first + 4)
    }

    /// Reads the record from the current row of a statement that selects ``sqliteColumns``;
    /// `path`, when given, is the row's path (the caller's string for the same bytes), which
    /// is then not read; `url`, when given, is kept instead of a copy if the row has the same.
    /// `lastModified`, the `Last-Modified` text of the row read before, is kept instead of a
    /// copy when the row has the same: files published together share one, and a batch reads
    /// 10,000 records.
    ///
    /// Throws ``SQLiteError/Code/corrupt`` for values the schema's constraints rule out.
    init(row: SQLiteStatement, path knownPath: String? = nil, url knownURL: String? = nil, lastModified knownLastModified: String? = nil) throws(SQLiteError) {
        guard let path = knownPath ?? row.text(at: 0), let url = row.text(at: 1, reusing: knownURL) else {
            throw SQLiteError(code: .corrupt, message: "a saved file has no path or no URL")
        }
        var lastResult: LastResult?
        if let kindName = row.textBytes(at: 9) {
            guard let kind = LastResult.Kind(utf8: kindName), let time = row.double(at: 11) else {
                throw SQLiteError(code: .corrupt, message: "the saved last result of \(path) is unreadable")
            }
            lastResult = LastResult(kind: kind, message: row.text(at: 10), date: Date(timeIntervalSince1970: time))
        }
        self.init(
            path: path,
            url: url,
            validators: Validators(etag: row.text(at: 2), lastModified: row.text(at: 3, reusing: knownLastModified)),
            size: row.int64(at: 4),
            // NOT NULL columns: their value with no look at its type first.
            partial: row.integer(at: 5) == 1 ? Validators(etag: row.text(at: 6), lastModified: row.text(at: 7)) : nil,
            failedAttempts: Int(row.integer(at: 8)),
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

extension LastResult.Kind {
    /// The kind whose raw value is `bytes` (a column's text as SQLite holds it), without making
    /// a string of them first; `nil` for any other text.
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        func holds(_ name: StaticString) -> Bool {
            name.utf8CodeUnitCount == bytes.count && memcmp(name.utf8Start, bytes.baseAddress!, bytes.count) == 0
        }
        if holds("unchanged") {
            self = .unchanged
        } else if holds("downloaded") {
            self = .downloaded
        } else if holds("failed") {
            self = .failed
        } else {
            return nil
        }
    }
}
