internal import CSQLite

/// One open SQLite database: runs SQL, keeps the statements it runs often compiled, and wraps
/// work in transactions.
///
/// Not thread-safe by design (opened with `SQLITE_OPEN_NOMUTEX`): one thread or one actor
/// owns a database. Deinitialising it finalizes the cached statements and closes the file.
///
/// - SeeAlso: https://www.sqlite.org/c3ref/sqlite3.html
final class SQLiteDatabase {
    /// How to open the file (`SQLITE_OPEN_*`).
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/open.html
    struct OpenFlags: OptionSet, Sendable {
        let rawValue: Int32

        /// Creates flags from `SQLITE_OPEN_*` bits.
        init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// Open for reading only; fail if the file does not exist.
        static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// The path is a `file:` URI with parameters.
        ///
        /// - SeeAlso: https://www.sqlite.org/uri.html
        static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
        /// Create the file if it does not exist; only together with ``readWrite``.
        static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    }

    /// The file the database lives in.
    let path: String
    private let connection: SQLiteConnection
    private var cachedStatements: [String: SQLiteStatement] = [:]

    /// Opens (or, with ``OpenFlags/create``, creates) the database at `path`.
    ///
    /// SQLite reads the file lazily: a file that is not a database opens fine here and fails
    /// with ``SQLiteError/Code/notADatabase`` on the first statement that reads it.
    init(path: String, flags: OpenFlags = [.readWrite, .create]) throws(SQLiteError) {
        var handle: OpaquePointer?
        // NOMUTEX: the type is confined to one thread, so SQLite's own locking would be waste.
        // EXRESCODE: extended result codes say which I/O operation failed.
        let result = sqlite3_open_v2(path, &handle, flags.rawValue | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard let handle else {
            throw SQLiteError(code: SQLiteError.Code(rawValue: result), message: "out of memory opening \(path)")
        }
        // Even a failed open returns a handle that holds the reason and must be closed.
        let connection = SQLiteConnection(handle: handle)
        try connection.check(result)
        self.path = path
        self.connection = connection
    }

    /// Whether closing the last connection to the file copies the log (`-wal`) into it and
    /// deletes the log, as SQLite does by default, or leaves the log for the next connection
    /// to read (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`). Where SQLite refuses the setting, closing
    /// checkpoints: the default, and always safe.
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfignockptonclose
    func setCheckpointsOnClose(_ checkpoints: Bool) {
        _ = syncagent_sqlite3_db_config_flag(connection.handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, checkpoints ? 0 : 1)
    }

    /// How long a statement waits for another connection's lock before failing with
    /// ``SQLiteError/Code/busy``.
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/busy_timeout.html
    func setBusyTimeout(_ timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection.handle, Int32(clamping: milliseconds))
    }

    /// Runs one or more SQL statements separated by semicolons, ignoring any rows they return.
    ///
    /// For schema scripts and pragmas; work that runs often belongs in ``withStatement(_:_:)``.
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/exec.html
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(connection.handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            throw SQLiteError(
                code: SQLiteError.Code(rawValue: result),
                message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            )
        }
    }

    /// Compiles one statement that the caller owns; it is not cached.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: connection, sql: sql, persistent: false)
    }

    /// Runs `body` with the cached compiled form of `sql`, compiling it on first use, and
    /// resets the statement afterwards whatever happened.
    ///
    /// Keeping statements compiled is what makes a one-row update cheap: parsing and planning
    /// the SQL costs more than the update itself.
    func withStatement<Result>(
        _ sql: String,
        _ body: (SQLiteStatement) throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        let statement: SQLiteStatement
        if let cached = cachedStatements[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: connection, sql: sql, persistent: true)
            cachedStatements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// The first column of the first row `sql` returns, or `nil` when it returns no row.
    ///
    /// For pragmas and counts: `PRAGMA user_version`, `SELECT count(*) FROM …`.
    func singleValue(_ sql: String) throws(SQLiteError) -> SQLiteValue? {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.step() == .row ? statement.value(at: 0) : nil
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    ///
    /// The transaction starts `IMMEDIATE`, taking the write lock up front, so it waits for
    /// other writers at its start (within the busy timeout) rather than failing half-way.
    /// Transactions do not nest.
    ///
    /// - SeeAlso: https://www.sqlite.org/lang_transaction.html
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        precondition(!isInTransaction, "SQLite transactions do not nest")
        try withStatement("BEGIN IMMEDIATE") { statement throws(SQLiteError) in try statement.run() }
        do {
            let result = try body()
            try withStatement("COMMIT") { statement throws(SQLiteError) in try statement.run() }
            return result
        } catch {
            // SQLite may already have rolled back by itself (after a full disk, for instance).
            if isInTransaction {
                _ = try? withStatement("ROLLBACK") { statement throws(SQLiteError) in try statement.run() }
            }
            throw error
        }
    }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(connection.handle) == 0 }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int64 { sqlite3_changes64(connection.handle) }
}

@available(*, unavailable, message: "an SQLite database is used from one thread only")
extension SQLiteDatabase: Sendable {}
