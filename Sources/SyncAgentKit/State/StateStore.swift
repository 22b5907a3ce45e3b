import FoundationEssentials
import Glibc

/// The saved state of every kept file, in one SQLite database: `state.sqlite3` in the state
/// folder (`$XDG_STATE_HOME/syncagent/`, or `--state-dir`).
///
/// Every change is a transaction of its own in a WAL-mode database, so a change is written
/// once its method returns and survives the process being killed at any instant; a save
/// costs one B-tree update whatever the number of files.
///
/// A store has one owner: one thread, or one actor, uses it. It closes the database when it
/// is deinitialised.
public final class StateStore {
    /// The database's file name inside the state folder.
    public static let fileName = "state.sqlite3"

    /// The database file.
    public let databasePath: String
    /// The open database; internal so tests can look at its pragmas.
    let database: SQLiteDatabase
    /// Whether the store was opened to read only (``init(readingOnlyIn:)``): nothing may write.
    public let isReadOnly: Bool

    /// Opens the state kept in `directory`, creating the folder (mode 0700) and the database
    /// if they do not exist, and bringing an older database up to date.
    ///
    /// Throws ``StateStoreError/Code/damaged``, ``StateStoreError/Code/notOurs`` or
    /// ``StateStoreError/Code/newerVersion`` for a file that cannot be used; their messages
    /// name the file and say what to do.
    public init(directory: String) throws(StateStoreError) {
        try Self.createDirectory(directory)
        let path = Self.databasePath(inDirectory: directory)
        try Self.loadSQLite(for: path)
        do {
            database = try SQLiteDatabase(path: path)
        } catch {
            throw StateStoreError(error, while: "open the saved state", databasePath: path)
        }
        databasePath = path
        isReadOnly = false
        // Another syncagent (say, `syncagent status` while the agent saves) holds the write
        // lock for milliseconds; waiting a while beats failing.
        database.setBusyTimeout(.seconds(5))
        try StateSchema.prepare(database)
    }

    /// Opens the state kept in `directory` for reading only, as a dry run needs it: nothing is
    /// created or changed, not even the folder. With no database there, the store is an empty
    /// one in memory. A database of an older version is refused (a real run updates it first).
    public init(readingOnlyIn directory: String) throws(StateStoreError) {
        let path = Self.databasePath(inDirectory: directory)
        let exists = access(path, F_OK) == 0
        try Self.loadSQLite(for: path)
        do {
            if !exists {
                database = try SQLiteDatabase(path: ":memory:")
            } else if access(path + "-wal", F_OK) == 0 {
                // Its log is there (someone has it open, or the last to close it left it,
                // ``logKeptOnClose``) and holds changes a reader must see. `readonly_shm`:
                // the shared memory is read as it is, or, with nobody else there to have made
                // it, the log is indexed in this process's own memory, where SQLite would
                // otherwise rewrite the -shm file.
                database = try SQLiteDatabase(path: Self.uri(path, "readonly_shm=1"), flags: [.readOnly, .uri])
            } else {
                // Everything in the file itself: `immutable` reads it without creating the
                // -wal and -shm files a WAL reader otherwise leaves behind.
                database = try SQLiteDatabase(path: Self.uri(path, "immutable=1"), flags: [.readOnly, .uri])
            }
        } catch {
            throw StateStoreError(error, while: "open the saved state", databasePath: path)
        }
        databasePath = path
        isReadOnly = true
        database.setBusyTimeout(.seconds(5))
        if exists { try StateSchema.checkReadable(database) } else { try StateSchema.prepare(database) }
    }

    /// Opens SQLite (once per process: it is not linked, see ``SharedLibrary``), or says which
    /// package to install.
    private static func loadSQLite(for path: String) throws(StateStoreError) {
        do {
            try SharedLibrary.sqlite.load()
        } catch {
            throw StateStoreError(.noSQLite, path: path, message: error.message)
        }
    }

    /// `file:PATH?PARAMETER`, the path escaped as a URI needs.
    private static func uri(_ path: String, _ parameter: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?" + parameter
    }

    /// How much of its log (`-wal`) a store leaves at closing for the next opening to read,
    /// rather than copy into the database file there and then.
    ///
    /// That copy (a checkpoint) flushes the log and the file to the device, and the next
    /// write then makes a new log and flushes it and its folder: four device flushes for a
    /// re-check that changed a few records, a third of a small re-check's time on a busy disk.
    /// Reading up to 256 KiB of log back at the next opening costs a fraction of a
    /// millisecond; past that, closing checkpoints as SQLite does by default.
    ///
    /// What a change still in the log risks is what synchronous = NORMAL risks already
    /// (``StateSchema``): `kill -9` loses nothing, and a power cut may take the state back to
    /// an earlier whole version, never a torn one. The files it describes are durable whatever
    /// it says, and a file whose record is lost is re-checked from its modification time.
    static let logKeptOnClose: Int64 = 256 * 1024

    deinit {
        guard !isReadOnly else { return }
        var log = stat()
        let logSize = stat(databasePath + "-wal", &log) == 0 ? Int64(log.st_size) : 0
        database.setCheckpointsOnClose(logSize > Self.logKeptOnClose)
    }

    /// The saved state of the file kept at `path`, or `nil` if there is none.
    public func record(forPath path: String) throws(StateStoreError) -> FileRecord? {
        try perform("read the saved state of \(path)") { () throws(SQLiteError) in
            try database.withStatement(Self.selectOneSQL) {
                statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(path), at: 1)
                return try statement.step() == .row ? FileRecord(row: statement) : nil
            }
        }
    }

    /// Every saved record, sorted by path (byte order of the UTF-8 text, as `ls` in the C locale).
    public func records() throws(StateStoreError) -> [FileRecord] {
        try perform("read the saved state") { () throws(SQLiteError) in
            try database.withStatement(Self.selectAllSQL) {
                statement throws(SQLiteError) in
                var records: [FileRecord] = []
                var lastModified: String?
                while try statement.step() == .row {
                    let record = try FileRecord(row: statement, lastModified: lastModified)
                    lastModified = record.validators.lastModified
                    records.append(record)
                }
                return records
            }
        }
    }

    /// The saved records of the files kept at `paths` (those that have one, in the order of
    /// `paths`; a path listed twice, twice), in one query whose cost grows with `paths`, not
    /// with the whole state: a state also holds records of files from other manifests. Each
    /// record's path is the string given in `paths`, not a copy read from the database; so is
    /// its URL when `urls` (one for each of `paths`) gives the one it was saved with.
    public func records(forPaths paths: [String], urls: [String]? = nil) throws(StateStoreError) -> [FileRecord] {
        if let inOrder = try recordsInPathOrder(forPaths: paths, urls: urls) { return inOrder }
        return try recordsByList(forPaths: paths, urls: urls)
    }

    /// ``records(forPaths:urls:)`` through a list that SQLite expands, for paths in any order.
    func recordsByList(forPaths paths: [String], urls: [String]?) throws(StateStoreError) -> [FileRecord] {
        guard !paths.isEmpty else { return [] }
        // The paths travel as one JSON array, expanded by SQLite's json_each, so a single
        // statement serves any number of them (bound parameters are capped at 32,766).
        let list = JSONStringArray.text(paths)
        return try perform("read the saved state") { () throws(SQLiteError) in
            try database.withStatement(Self.selectSomeSQL) {
                statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(list), at: 1)
                var records: [FileRecord] = []
                var lastModified: String?
                while try statement.step() == .row {
                    // The listed path's place in `paths` (json_each's key): its string, with no
                    // second one made of the same bytes.
                    let place = statement.int64(at: Self.listedPlaceColumn).map(Int.init)
                    let known = place.flatMap { paths.indices.contains($0) ? $0 : nil }
                    let record = try FileRecord(row: statement, path: known.map { paths[$0] }, url: known.flatMap { urls?[$0] },
                                                lastModified: lastModified)
                    lastModified = record.validators.lastModified
                    records.append(record)
                }
                return records
            }
        }
    }

    /// Saves `record`, replacing the saved state of the same path if there is one.
    public func save(_ record: FileRecord) throws(StateStoreError) {
        try perform("save the state of \(record.path)") { () throws(SQLiteError) in
            try upsert([record], with: Self.upsertSQL)
        }
    }

    /// Saves every record in `records` in one transaction: after a crash, either all of them
    /// are saved or none is.
    public func save(_ records: [FileRecord]) throws(StateStoreError) {
        guard !records.isEmpty else { return }
        try perform("save the state of \(counted(records.count, "file"))") { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in try upsert(records, with: Self.upsertSQL) }
        }
    }

    /// Saves what transfers learnt of every file in `records` and `resultsOnly`, in one
    /// transaction: each record's columns but its ``FileRecord/hold``, which belongs to the
    /// user's `pause` and `stop` and may have been changed since `records` were read (a new
    /// record is saved with its hold as given). `resultsOnly` are records saved before whose
    /// result is all that changed (a re-check's): see ``updateResults(_:)``.
    public func saveTransferResults(_ records: [FileRecord], resultsOnly: [FileRecord] = []) throws(StateStoreError) {
        guard !records.isEmpty || !resultsOnly.isEmpty else { return }
        try perform("save the state of \(counted(records.count + resultsOnly.count, "file"))") { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                try upsert(records, with: Self.upsertKeepingHoldSQL)
                try updateResults(resultsOnly)
            }
        }
    }

    /// Forgets the file kept at `path`. Returns whether there was a record to forget.
    @discardableResult
    public func removeRecord(forPath path: String) throws(StateStoreError) -> Bool {
        try perform("forget the state of \(path)") { () throws(SQLiteError) in
            try database.withStatement("DELETE FROM files WHERE path = ?1") { statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(path), at: 1)
                try statement.run()
                return database.changes > 0
            }
        }
    }

    /// Forgets every file.
    public func removeAll() throws(StateStoreError) {
        try perform("forget the saved state") { () throws(SQLiteError) in
            try database.withStatement("DELETE FROM files") { statement throws(SQLiteError) in
                try statement.run()
            }
        }
    }

    /// Deletes the database in `directory` with its WAL and shared-memory files, whatever is in
    /// them: how `syncagent reset` starts over from a damaged, foreign or newer file.
    ///
    /// No store may have the database open, in this process or another: deleting the files
    /// under an open connection loses its later changes.
    public static func removeDatabase(inDirectory directory: String) throws(StateStoreError) {
        let path = databasePath(inDirectory: directory)
        for file in [path, path + "-wal", path + "-shm"] where unlink(file) != 0 && errno != ENOENT {
            let reason = systemReason()
            throw StateStoreError(.storage, path: file, message: "Could not delete \(file): \(reason).")
        }
    }

    private static let columnList = FileRecord.sqliteColumns.joined(separator: ", ")

    private static let selectOneSQL = "SELECT \(columnList) FROM files WHERE path = ?1"

    private static let selectAllSQL = "SELECT \(columnList) FROM files ORDER BY path"

    /// The listed paths drive the loop (`CROSS JOIN` keeps that order), each a search of the
    /// paths' index: `path IN (SELECT value FROM json_each(?1))` would first sort the list into
    /// a temporary index, a quarter more work for 10,000 paths.
    static let selectSomeSQL = """
        SELECT \(FileRecord.sqliteColumns.map { "files." + $0 }.joined(separator: ", ")), listed.key
        FROM json_each(?1) AS listed CROSS JOIN files ON files.path = listed.value
        """

    /// The column of ``selectSomeSQL`` that holds the listed path's place in the list.
    private static let listedPlaceColumn = Int32(FileRecord.sqliteColumns.count)

    private static let upsertSQL = upsert(updating: FileRecord.sqliteColumns.dropFirst())

    static let upsertKeepingHoldSQL = upsert(updating: FileRecord.sqliteColumns.dropFirst().filter { $0 != "hold" })

    /// Inserts a row, or for an existing path updates only `columns`.
    private static func upsert(updating columns: some Sequence<String>) -> String {
        """
        INSERT INTO files (\(columnList))
        VALUES (\(FileRecord.sqliteColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
        ON CONFLICT (path) DO UPDATE SET
        \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    }

    /// Runs the upsert `sql` for each record, through one prepared statement: finding it by
    /// its text costs more than binding a row.
    func upsert(_ records: [FileRecord], with sql: String) throws(SQLiteError) {
        // Nothing to save compiles nothing: a re-check that changed only results needs no upsert.
        guard !records.isEmpty else { return }
        try database.withStatement(sql) { statement throws(SQLiteError) in
            for record in records {
                try record.bind(to: statement)
                try statement.run()
                statement.rewind()
            }
        }
    }

    /// Runs `body`, turning an SQLite failure into an error that says what was being done.
    func perform<Result>(
        _ action: @autoclosure () -> String,
        _ body: () throws(SQLiteError) -> Result
    ) throws(StateStoreError) -> Result {
        do {
            return try body()
        } catch {
            throw StateStoreError(error, while: action(), databasePath: databasePath)
        }
    }

    private static func databasePath(inDirectory directory: String) -> String {
        directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }

    /// Creates `directory` and any missing parent, each with mode 0700, as the XDG base
    /// directory specification asks: the state lists what the user keeps and where from.
    private static func createDirectory(_ directory: String) throws(StateStoreError) {
        if let reason = createFolders(directory, mode: 0o700) {
            throw directoryError(directory, reason: reason)
        }
    }

    private static func directoryError(_ directory: String, reason: String) -> StateStoreError {
        StateStoreError(
            .cannotCreateDirectory, path: directory,
            message: "Could not create the state folder \(directory): \(reason)."
        )
    }
}

@available(*, unavailable, message: "a StateStore has one owner: one thread or one actor")
extension StateStore: Sendable {}
