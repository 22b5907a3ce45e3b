internal import CSQLite

/// A failed SQLite call: SQLite's result code together with the connection's own explanation.
struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An SQLite result code, extended where SQLite gave one (`SQLITE_IOERR_WRITE`, not just
    /// `SQLITE_IOERR`).
    ///
    /// - SeeAlso: https://www.sqlite.org/rescode.html
    struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as SQLite returned it.
        let rawValue: Int32

        /// Wraps a code SQLite returned.
        init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The primary code (the low byte): what callers match on, since extended codes only
        /// add detail to it.
        var primary: Code { Code(rawValue: rawValue & 0xFF) }

        /// SQLite's short English text for the code, e.g. "database is locked".
        var description: String { String(cString: sqlite3_errstr(rawValue)) }

        /// `SQLITE_ERROR`: a generic failure, such as an SQL syntax error.
        static let error = Code(rawValue: SQLITE_ERROR)
        /// `SQLITE_BUSY`: another connection held a lock for longer than the busy timeout.
        static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_READONLY`: the file or its folder cannot be written.
        static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        static let ioError = Code(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT`: the file is a database, but a damaged one.
        static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL`: the disk is full.
        static let full = Code(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN`: the file could not be opened or created.
        static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_CONSTRAINT`: a `CHECK`, `NOT NULL` or key constraint refused the change.
        static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_MISUSE`: the API was called in a way SQLite does not allow.
        static let misuse = Code(rawValue: SQLITE_MISUSE)
        /// `SQLITE_RANGE`: a parameter index out of range.
        static let range = Code(rawValue: SQLITE_RANGE)
        /// `SQLITE_NOTADB`: the file is not an SQLite database at all.
        static let notADatabase = Code(rawValue: SQLITE_NOTADB)
    }

    /// What kind of failure it was.
    var code: Code
    /// `sqlite3_errmsg` at the moment of failure: usually more specific than the code's text,
    /// e.g. "no such table: files" rather than "SQL logic error".
    var message: String

    /// Describes the failure for people.
    var description: String { message }

    /// An error with a code and a message.
    init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
