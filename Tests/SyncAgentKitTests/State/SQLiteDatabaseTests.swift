import Foundation
import Testing
@testable import SyncAgentKit

/// Each test gets a fresh folder, removed when the test ends.
final class SQLiteDatabaseTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/syncagent-sqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func openDatabase(named name: String = "test.sqlite3") throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: directory + "/" + name)
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value)")
        return database
    }

    /// Inserts `value`, reads it back through `read`, and returns what came back.
    func roundTrip<T>(_ value: SQLiteValue, read: (SQLiteStatement) -> T) throws -> T {
        let database = try openDatabase(named: "\(UUID().uuidString).sqlite3")
        let insert = try database.prepare("INSERT INTO t (id, value) VALUES (1, ?1)")
        try insert.bind(value, at: 1)
        try insert.run()
        let select = try database.prepare("SELECT value FROM t WHERE id = 1")
        #expect(try select.step() == .row)
        return read(select)
    }

    @Test(arguments: ["", "plain", "ünïcødé ✓ 文字 🚀", "with\0nul\0inside"])
    func textRoundTrips(text: String) throws {
        #expect(try roundTrip(.text(text)) { $0.text(at: 0) } == text)
        #expect(try roundTrip(.text(text)) { $0.value(at: 0) } == .text(text))
    }

    @Test func longTextRoundTrips() throws {
        let text = String(repeating: "long text ", count: 100_000)
        #expect(try roundTrip(.text(text)) { $0.text(at: 0) } == text)
    }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
    func integerRoundTrips(integer: Int64) throws {
        #expect(try roundTrip(.integer(integer)) { $0.int64(at: 0) } == integer)
        #expect(try roundTrip(.integer(integer)) { $0.value(at: 0) } == .integer(integer))
    }

    @Test(arguments: [0, -0.5, 1_763_700_000.123, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude])
    func doubleRoundTrips(double: Double) throws {
        #expect(try roundTrip(.real(double)) { $0.double(at: 0) } == double)
        #expect(try roundTrip(.real(double)) { $0.value(at: 0) } == .real(double))
    }

    @Test(arguments: [[], [0, 1, 2, 255]] as [[UInt8]])
    func blobRoundTrips(bytes: [UInt8]) throws {
        #expect(try roundTrip(.blob(bytes)) { $0.blob(at: 0) } == bytes)
        #expect(try roundTrip(.blob(bytes)) { $0.value(at: 0) } == .blob(bytes))
    }

    @Test func nullReadsAsNilForEveryType() throws {
        let nulls = try roundTrip(.null) { row in
            [row.isNull(at: 0), row.text(at: 0) == nil, row.int64(at: 0) == nil, row.double(at: 0) == nil]
        }
        #expect(nulls == [true, true, true, true])
        #expect(try roundTrip(.null) { $0.value(at: 0) } == .null)
    }

    @Test func optionalsBecomeNull() {
        #expect(SQLiteValue(nil as String?) == .null)
        #expect(SQLiteValue(nil as Int64?) == .null)
        #expect(SQLiteValue(nil as Double?) == .null)
        #expect(SQLiteValue("a" as String?) == .text("a"))
        #expect(SQLiteValue(7 as Int?) == .integer(7))
        #expect(SQLiteValue(true) == .integer(1))
    }

    /// The typed binds a statement run per row uses give what the ``SQLiteValue`` ones give:
    /// `nil` is `NULL`, and an empty string is empty text, not `NULL`.
    @Test func typedBindsMatchValueBinds() throws {
        let database = try openDatabase()
        let insert = try database.prepare("INSERT INTO t (id, value) VALUES (?1, ?2)")
        let values: [(Int64, (SQLiteStatement) throws(SQLiteError) -> Void)] = [
            (1, { statement throws(SQLiteError) in try statement.bind("", at: 2) }),
            (2, { statement throws(SQLiteError) in try statement.bind("with\0nul", at: 2) }),
            (3, { statement throws(SQLiteError) in try statement.bind(nil as String?, at: 2) }),
            (4, { statement throws(SQLiteError) in try statement.bind(Int64(-7), at: 2) }),
            (5, { statement throws(SQLiteError) in try statement.bind(nil as Int64?, at: 2) }),
            (6, { statement throws(SQLiteError) in try statement.bind(0.5, at: 2) }),
            (7, { statement throws(SQLiteError) in try statement.bind(nil as Double?, at: 2) }),
        ]
        for (id, bind) in values {
            try insert.bind(id, at: 1)
            try bind(insert)
            try insert.run()
            insert.reset()
        }
        let select = try database.prepare("SELECT typeof(value), value FROM t ORDER BY id")
        var rows: [String] = []
        while try select.step() == .row {
            rows.append("\(select.text(at: 0) ?? "?") \(select.value(at: 1))")
        }
        #expect(rows == [
            "text text(\"\")", "text text(\"with\\0nul\")", "null null", "integer integer(-7)", "null null",
            "real real(0.5)", "null null",
        ])
    }

    /// A rewound statement runs again with the same parameters; the reset at the end of
    /// ``SQLiteDatabase/withStatement(_:_:)`` still clears them.
    @Test func rewindKeepsTheParametersAndTheCacheStillClearsThem() throws {
        let database = try openDatabase()
        let sql = "INSERT INTO t (value) VALUES (?1)"
        try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind("kept", at: 1)
            try statement.run()
            statement.rewind()
            try statement.run()
        }
        try database.withStatement(sql) { statement throws(SQLiteError) in try statement.run() }
        let select = try database.prepare("SELECT value FROM t ORDER BY id")
        var values: [String?] = []
        while try select.step() == .row { values.append(select.text(at: 0)) }
        #expect(values == ["kept", "kept", nil])
    }

    /// Texts bound row after row (SQLite reads them where the statement keeps them) come back
    /// whole, however their lengths fill and overflow the statement's memory: empty ones,
    /// short ones, and some far longer than any before them.
    /// `NULL` bound to a parameter that holds `NULL` is skipped: whatever each parameter held
    /// before (nothing yet, text, an integer, a real, `NULL`, or cleared by a reset), it holds
    /// what was bound last; a parameter the statement does not have is refused as before.
    @Test func nullBoundRowAfterRowReplacesWhateverTheParameterHeld() throws {
        let database = try openDatabase()
        let select = try database.prepare("SELECT ?1, ?2, ?3")
        func row() throws -> [SQLiteValue] {
            #expect(try select.step() == .row)
            defer { select.rewind() }
            return (0..<3).map { select.value(at: $0) }
        }
        try select.bind(nil as String?, at: 1)
        try select.bind(SQLiteValue.null, at: 2)
        try select.bind(nil as Double?, at: 3)
        #expect(try row() == [.null, .null, .null])
        try select.bind("text", at: 1)
        try select.bind(Int64(7), at: 2)
        try select.bind(0.5, at: 3)
        #expect(try row() == [.text("text"), .integer(7), .real(0.5)])
        try select.bind(nil as Int64?, at: 1)
        try select.bind(nil as String?, at: 2)
        try select.bind(SQLiteValue.null, at: 3)
        #expect(try row() == [.null, .null, .null])
        try select.bind(nil as Int64?, at: 1)
        try select.bind(.blob([1]), at: 2)
        try select.bind(.text("again"), at: 3)
        #expect(try row() == [.null, .blob([1]), .text("again")])
        try select.bind(SQLiteValue.null, at: 2)
        try select.bind(nil as Double?, at: 3)
        #expect(try row() == [.null, .null, .null])
        try select.bind("kept", at: 1)
        select.reset()
        try select.bind(nil as String?, at: 1)
        #expect(try row() == [.null, .null, .null])
        let outside = #expect(throws: SQLiteError.self) { try select.bind(nil as String?, at: 4) }
        #expect(outside?.code == .range)
    }

    @Test func textsBoundRowAfterRowComeBackWhole() throws {
        let database = try openDatabase()
        try database.execute("CREATE TABLE pairs (id INTEGER PRIMARY KEY, first, second)")
        var generator = SystemRandomNumberGenerator()
        let lengths = (0..<600).map { row in row % 97 == 0 ? 20_000 + row : Int.random(in: 0...300, using: &generator) }
        let rows = lengths.enumerated().map { row, length in
            (String(repeating: Array("ab\0ü")[row % 4], count: length), "second \(row) " + String(repeating: "x", count: length / 3))
        }
        try database.withStatement("INSERT INTO pairs (id, first, second) VALUES (?1, ?2, ?3)") { statement throws(SQLiteError) in
            for (id, row) in rows.enumerated() {
                try statement.bind(Int64(id), at: 1)
                try statement.bind(row.0, at: 2)
                try statement.bind(row.1, at: 3)
                try statement.run()
                statement.rewind()
            }
        }
        let select = try database.prepare("SELECT first, second FROM pairs ORDER BY id")
        var read: [(String, String)] = []
        while try select.step() == .row { read.append((select.text(at: 0) ?? "<null>", select.text(at: 1) ?? "<null>")) }
        #expect(read.count == rows.count)
        #expect(zip(read, rows).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    }

    @Test func stepsThroughEveryRowInOrder() throws {
        let database = try openDatabase()
        try database.execute("INSERT INTO t (id, value) VALUES (3, 'c'), (1, 'a'), (2, 'b')")
        let select = try database.prepare("SELECT id, value FROM t ORDER BY id")
        var rows: [String] = []
        while try select.step() == .row {
            rows.append("\(select.int64(at: 0) ?? -1)\(select.text(at: 1) ?? "?")")
        }
        #expect(rows == ["1a", "2b", "3c"])
        #expect(select.columnCount == 2)
    }

    @Test func cachedStatementIsCompiledOnceAndResetAfterUse() throws {
        let database = try openDatabase()
        let sql = "INSERT INTO t (id, value) VALUES (?1, ?2)"
        var statements: Set<ObjectIdentifier> = []
        for id in 1...3 {
            try database.withStatement(sql) { statement throws(SQLiteError) in
                statements.insert(ObjectIdentifier(statement))
                try statement.bind([.integer(Int64(id)), .text("row \(id)")])
                try statement.run()
            }
        }
        #expect(statements.count == 1)
        // Bindings were cleared by the reset: an unbound parameter inserts NULL.
        try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind(.integer(4), at: 1)
            try statement.run()
        }
        #expect(try database.singleValue("SELECT count(*) FROM t WHERE value IS NULL") == .integer(1))
        #expect(try database.singleValue("SELECT count(*) FROM t") == .integer(4))
    }

    @Test func singleValueIsNilWithoutRows() throws {
        let database = try openDatabase()
        #expect(try database.singleValue("SELECT value FROM t") == nil)
    }

    @Test func transactionCommitsWhenTheBodyReturns() throws {
        let database = try openDatabase()
        let result = try database.transaction { () throws(SQLiteError) in
            try database.execute("INSERT INTO t (id, value) VALUES (1, 'kept')")
            #expect(database.isInTransaction)
            return 42
        }
        #expect(result == 42)
        #expect(!database.isInTransaction)
        #expect(try database.singleValue("SELECT value FROM t") == .text("kept"))
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        let database = try openDatabase()
        #expect(throws: SQLiteError.self) {
            try database.transaction { () throws(SQLiteError) in
                try database.execute("INSERT INTO t (id, value) VALUES (1, 'undone')")
                try database.execute("INSERT INTO t (id, value) VALUES (1, 'same key')")
            }
        }
        #expect(!database.isInTransaction)
        #expect(try database.singleValue("SELECT count(*) FROM t") == .integer(0))
    }

    @Test func errorsCarrySQLitesCodeAndMessage() throws {
        let database = try openDatabase()
        let syntax = #expect(throws: SQLiteError.self) { try database.prepare("SELEKT 1") }
        #expect(syntax?.code == .error)
        #expect(syntax?.message.contains("SELEKT") == true)

        try database.execute("INSERT INTO t (id, value) VALUES (1, 'x')")
        let duplicate = #expect(throws: SQLiteError.self) {
            try database.execute("INSERT INTO t (id, value) VALUES (1, 'y')")
        }
        #expect(duplicate?.code.primary == .constraint)
        #expect(duplicate?.code != .constraint, "extended result codes are on")
        #expect(duplicate?.message.contains("UNIQUE constraint failed") == true)

        let range = #expect(throws: SQLiteError.self) {
            try database.prepare("SELECT ?1").bind(.integer(1), at: 2)
        }
        #expect(range?.code == .range)
    }

    @Test func prepareRefusesMoreThanOneStatement() throws {
        let database = try openDatabase()
        let error = #expect(throws: SQLiteError.self) { try database.prepare("SELECT 1; SELECT 2") }
        #expect(error?.code == .misuse)
        #expect(try database.prepare("SELECT 1;  \n").parameterCount == 0)
    }

    @Test func aFileThatIsNotADatabaseFailsOnFirstRead() throws {
        let path = directory + "/garbage"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let database = try SQLiteDatabase(path: path)
        let error = #expect(throws: SQLiteError.self) { try database.singleValue("PRAGMA user_version") }
        #expect(error?.code == .notADatabase)
        #expect(error?.message == "file is not a database")
    }

    @Test func openingAMissingFileWithoutCreateFails() {
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteDatabase(path: directory + "/missing.sqlite3", flags: [.readWrite])
        }
        #expect(error?.code.primary == .cannotOpen)
    }

    @Test func readOnlyDatabaseRefusesWrites() throws {
        _ = try openDatabase()
        let database = try SQLiteDatabase(path: directory + "/test.sqlite3", flags: [.readOnly])
        let error = #expect(throws: SQLiteError.self) { try database.execute("DELETE FROM t") }
        #expect(error?.code.primary == .readOnly)
    }

    @Test func aStatementKeepsItsConnectionAliveAfterTheDatabaseIsGone() throws {
        var database: SQLiteDatabase? = try openDatabase()
        let statement = try #require(database).prepare("SELECT 40 + 2")
        database = nil
        #expect(try statement.step() == .row)
        #expect(statement.int64(at: 0) == 42)
    }
}
