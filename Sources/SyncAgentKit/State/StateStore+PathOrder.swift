import Glibc

/// Reading a batch's records in one walk of the table, when its paths come in the table's order.
extension StateStore {
    /// ``records(forPaths:urls:)`` for paths in strictly ascending byte order (a manifest that
    /// lists its files by name, as generated ones often do), or `nil` for any other list, which
    /// is read as before.
    ///
    /// The paths' index keeps them in that order, so one range of it, from the first path to
    /// the last, holds every record asked for: read in one pass, each row matched to its path
    /// by a walk down the list, instead of a search of the index per path and a JSON list
    /// that SQLite parses and copies a value of per path (10,000 records: 72 against 99 M
    /// instructions). A batch with no saved records (a first fetch) costs one empty range
    /// instead of 10,000 searches (32 M).
    ///
    /// The range also holds any record of another file whose path sorts between two asked
    /// for; those are skipped. So that a state full of such records cannot make the read grow
    /// with the whole state, at most ``rowsReadPerPath`` rows per path are read: past that,
    /// the paths not yet reached are read through the list (``recordsByList(forPaths:urls:)``).
    func recordsInPathOrder(forPaths paths: [String], urls: [String]?) throws(StateStoreError) -> [FileRecord]? {
        guard let first = paths.first, let last = paths.last, Self.ascending(paths) else { return nil }
        let limit = Int64(paths.count * Self.rowsReadPerPath)
        var records: [FileRecord] = []
        var next = 0
        var rowsRead: Int64 = 0
        var lastModified: String?
        try perform("read the saved state") { () throws(SQLiteError) in
            try database.withStatement(Self.selectRangeSQL) { statement throws(SQLiteError) in
                try statement.bind(first, at: 1)
                try statement.bind(last, at: 2)
                try statement.bind(limit, at: 3)
                while next < paths.count, try statement.step() == .row {
                    rowsRead += 1
                    // The row's path as SQLite holds it, compared in place: no string made
                    // of a record's path (the caller's is kept) nor of another file's.
                    guard let bytes = statement.textBytes(at: 0) else { continue }
                    while next < paths.count, Self.compare(paths[next], bytes) < 0 { next += 1 }
                    guard next < paths.count, Self.compare(paths[next], bytes) == 0 else { continue }
                    let record = try FileRecord(row: statement, path: paths[next], url: urls?[next], lastModified: lastModified)
                    lastModified = record.validators.lastModified
                    records.append(record)
                    next += 1
                }
            }
        }
        if rowsRead == limit, next < paths.count {
            records += try recordsByList(forPaths: Array(paths[next...]), urls: urls.map { Array($0[next...]) })
        }
        return records
    }

    /// Rows read per path asked for, at most, before the rest goes through the list.
    static let rowsReadPerPath = 2

    /// The saved records from `?1` to `?2` in path order, `?3` of them at most.
    static let selectRangeSQL = """
        SELECT \(FileRecord.sqliteColumns.joined(separator: ", ")) FROM files
        WHERE path >= ?1 AND path <= ?2 ORDER BY path LIMIT ?3
        """

    /// Whether each of `paths` sorts after the one before it, byte by byte, as SQLite's
    /// `BINARY` collation orders the table (no path twice).
    static func ascending(_ paths: [String]) -> Bool {
        var previous = paths.startIndex
        for index in paths.indices.dropFirst() {
            var before = paths[previous]
            let order = before.withUTF8 { bytes in compare(paths[index], UnsafeRawBufferPointer(bytes)) }
            guard order > 0 else { return false }
            previous = index
        }
        return true
    }

    /// `text` against `bytes` in `BINARY` order: `memcmp` of the common length, then the
    /// shorter first. Negative, zero or positive, as `memcmp`.
    static func compare(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Int {
        var text = text
        return text.withUTF8 { own in
            let common = min(own.count, bytes.count)
            if common > 0, let start = own.baseAddress, let other = bytes.baseAddress {
                let order = memcmp(start, other, common)
                if order != 0 { return Int(order) }
            }
            return own.count - bytes.count
        }
    }
}
