internal import CSQLite

/// Owns one `sqlite3` connection handle and closes it when the last owner lets go.
///
/// ``SQLiteDatabase`` and every ``SQLiteStatement`` prepared on it keep the connection
/// alive, so a statement can never outlive the connection it belongs to, and the database's
/// statement cache does not form a reference cycle with the statements in it.
final class SQLiteConnection {
    /// The raw handle; used only by the wrapper types in this folder.
    let handle: OpaquePointer

    /// Takes ownership of an open handle.
    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The error SQLite reported for `code`, with the connection's `sqlite3_errmsg` text.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: SQLiteError.Code(rawValue: code), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Throws the connection's error unless `code` is `SQLITE_OK`.
    func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw error(code) }
    }
}

@available(*, unavailable, message: "an SQLite connection is used from one thread only")
extension SQLiteConnection: Sendable {}
