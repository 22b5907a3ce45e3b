internal import CSQLite
import Glibc

/// One prepared SQL statement: bind parameters, step through the rows, read columns.
///
/// Parameter and column indices follow SQLite: parameters count from 1, columns from 0.
/// After use, ``reset()`` the statement: an unfinished `SELECT` keeps its read snapshot open,
/// which in WAL mode stops checkpoints from shrinking the log.
///
/// - SeeAlso: https://www.sqlite.org/c3ref/stmt.html
final class SQLiteStatement {
    /// What one ``step()`` produced.
    enum StepResult: Sendable, Equatable {
        /// A result row is ready to read.
        case row
        /// The statement has run to completion.
        case done
    }

    /// The SQL text the statement was prepared from.
    let sql: String
    private let connection: SQLiteConnection
    private let handle: OpaquePointer
    /// The bytes of the bound text parameters.
    private let texts = SQLiteTextArena()
    /// Each of the first 64 parameters that holds `NULL`, as bit `index - 1`: binding `NULL` to
    /// one of them again is skipped. A statement run per row keeps its parameters from row to
    /// row (``rewind()``), and most of a record's columns are `NULL` row after row; each
    /// `sqlite3_bind_null` costs about a hundred instructions. A bit is set only once SQLite
    /// said the parameter holds `NULL`, and cleared before any other bind.
    private var nullParameters: UInt64
    /// The bits of ``nullParameters`` that stand for a parameter of the statement: all of them
    /// hold `NULL` before the first bind and after ``reset()``. A parameter outside is always
    /// passed to SQLite, which refuses it as before.
    private let parameterBits: UInt64

    /// Compiles exactly one SQL statement.
    ///
    /// - Parameter persistent: Whether the statement will be kept and reused for a long time
    ///   (`SQLITE_PREPARE_PERSISTENT`), as the statement cache does.
    /// - SeeAlso: https://www.sqlite.org/c3ref/prepare.html
    init(connection: SQLiteConnection, sql: String, persistent: Bool) throws(SQLiteError) {
        var handle: OpaquePointer?
        var remainderIsBlank = true
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let result = sqlite3_prepare_v3(connection.handle, text, -1, flags, &handle, &tail)
            if let tail {
                remainderIsBlank = String(cString: tail).allSatisfy(\.isWhitespace)
            }
            return result
        }
        guard result == SQLITE_OK else { throw connection.error(result) }
        guard let handle else {
            throw SQLiteError(code: .misuse, message: "there is no SQL statement in \"\(sql)\"")
        }
        guard remainderIsBlank else {
            sqlite3_finalize(handle)
            throw SQLiteError(code: .misuse, message: "only one SQL statement can be prepared at a time: \"\(sql)\"")
        }
        self.sql = sql
        self.connection = connection
        self.handle = handle
        let count = sqlite3_bind_parameter_count(handle)
        parameterBits = count >= 64 ? .max : (1 << UInt64(count)) - 1
        nullParameters = parameterBits
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// How many parameters the statement takes.
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Binds `value` to the parameter at `index` (from 1).
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/bind_blob.html
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let result: Int32
        if value != .null { nullParameters &= ~Self.bit(index) }
        switch value {
        case .null:
            result = bindNull(at: index)
        case .integer(let integer):
            result = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            result = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            result = bindText(text, at: index)
        case .blob(let bytes) where bytes.isEmpty:
            // A nil pointer would bind NULL, so an empty blob is bound as a zero-length one.
            result = sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let bytes):
            result = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(handle, index, buffer.baseAddress, UInt64(buffer.count), csqlite_transient())
            }
        }
        try connection.check(result)
    }

    /// Binds `text`, or `NULL` for `nil`, to the parameter at `index` (from 1): for a statement
    /// run per row, without wrapping each value in an ``SQLiteValue`` first.
    func bind(_ text: String?, at index: Int32) throws(SQLiteError) {
        guard let text else { return try connection.check(bindNull(at: index)) }
        try connection.check(bindText(text, at: index))
    }

    /// Binds `integer`, or `NULL` for `nil`, to the parameter at `index` (from 1).
    func bind(_ integer: Int64?, at index: Int32) throws(SQLiteError) {
        guard let integer else { return try connection.check(bindNull(at: index)) }
        nullParameters &= ~Self.bit(index)
        try connection.check(sqlite3_bind_int64(handle, index, integer))
    }

    /// Binds `real`, or `NULL` for `nil`, to the parameter at `index` (from 1).
    func bind(_ real: Double?, at index: Int32) throws(SQLiteError) {
        guard let real else { return try connection.check(bindNull(at: index)) }
        nullParameters &= ~Self.bit(index)
        try connection.check(sqlite3_bind_double(handle, index, real))
    }

    /// Binds `NULL` to the parameter at `index`, unless it holds `NULL` already.
    private func bindNull(at index: Int32) -> Int32 {
        let bit = Self.bit(index)
        guard nullParameters & bit == 0 else { return SQLITE_OK }
        let result = sqlite3_bind_null(handle, index)
        if result == SQLITE_OK { nullParameters |= bit }
        return result
    }

    /// The bit of ``nullParameters`` for the parameter at `index`, 0 past the 64th (or below 1).
    private static func bit(_ index: Int32) -> UInt64 {
        index >= 1 && index <= 64 ? 1 << UInt64(index - 1) : 0
    }

    /// Binds `text` from a copy in ``texts``, which SQLite reads where it is (`SQLITE_STATIC`,
    /// a `nil` destructor) instead of copying it once more. The explicit byte count keeps text
    /// with NUL characters whole.
    private func bindText(_ text: String, at index: Int32) -> Int32 {
        nullParameters &= ~Self.bit(index)
        let bytes = texts.store(text)
        return sqlite3_bind_text64(handle, index, bytes.baseAddress, UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
    }

    /// Binds `values` to the parameters 1, 2, 3… in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Runs the statement to its next row, or to its end.
    ///
    /// - SeeAlso: https://www.sqlite.org/c3ref/step.html
    @discardableResult
    func step() throws(SQLiteError) -> StepResult {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW:
            return .row
        case SQLITE_DONE:
            return .done
        default:
            throw connection.error(result)
        }
    }

    /// Runs a statement that returns no rows of interest to its end.
    func run() throws(SQLiteError) {
        while try step() == .row {}
    }

    /// Puts the statement back to its start and clears its parameters, ready to run again.
    func reset() {
        rewind()
        sqlite3_clear_bindings(handle)
        nullParameters = parameterBits
        // No parameter points into the texts' memory any more.
        texts.reclaim()
    }

    /// Puts the statement back to its start keeping its parameters: for a loop that binds
    /// every parameter anew before each run, where clearing them between rows is waste
    /// (``SQLiteDatabase/withStatement(_:_:)`` clears them when the loop is over). Texts bound
    /// after it reuse the memory of the last run's, so a text parameter not bound again may
    /// read another's bytes: bind them all.
    func rewind() {
        // sqlite3_reset repeats the error of the last step, which step() has already thrown.
        sqlite3_reset(handle)
        texts.rewind()
    }

    /// How many columns each result row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Whether the column at `column` (from 0) of the current row is `NULL`.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column at `column` of the current row as text, or `nil` for `NULL`.
    func text(at column: Int32) -> String? {
        // NULL is the one value without text (an empty string has a pointer to its NUL), so
        // no sqlite3_column_type call is needed first.
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        // The length comes after the text call, as SQLite documents, so it counts the UTF-8 form.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The UTF-8 bytes of the column at `column` of the current row, or `nil` for `NULL`, where
    /// SQLite holds them: valid until the next step, reset or read of the column as another type.
    func textBytes(at column: Int32) -> UnsafeRawBufferPointer? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The column at `column` of the current row as text, `known` itself when it has the
    /// same bytes: a string the caller holds anyway is not made a second time.
    func text(at column: Int32, reusing known: String?) -> String? {
        guard var known else { return text(at: column) }
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        let same = known.utf8.count == count && known.withUTF8 { own in count == 0 || memcmp(own.baseAddress!, bytes, count) == 0 }
        return same ? known : String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column at `column` of the current row as an integer, or `nil` for `NULL`.
    func int64(at column: Int32) -> Int64? {
        isNull(at: column) ? nil : sqlite3_column_int64(handle, column)
    }

    /// The column at `column` of the current row as an integer, 0 for `NULL`: for a `NOT NULL`
    /// column, one call to SQLite instead of two.
    func integer(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column at `column` of the current row as a real number, or `nil` for `NULL`.
    func double(at column: Int32) -> Double? {
        isNull(at: column) ? nil : sqlite3_column_double(handle, column)
    }

    /// The column at `column` of the current row as bytes, or `nil` for `NULL`.
    func blob(at column: Int32) -> [UInt8]? {
        guard !isNull(at: column) else { return nil }
        let start = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The column at `column` of the current row with the type SQLite stored it as.
    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            return text(at: column).map { .text($0) } ?? .null
        case SQLITE_BLOB:
            return .blob(blob(at: column) ?? [])
        case let type:
            fatalError("sqlite3_column_type returned \(type), which SQLite does not define")
        }
    }
}

@available(*, unavailable, message: "an SQLite statement is used from one thread only")
extension SQLiteStatement: Sendable {}
