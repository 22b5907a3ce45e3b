/// The layout of the state database, and the one place that creates it and brings older
/// files up to date.
///
/// `PRAGMA application_id` marks the file as syncagent's; `PRAGMA user_version` counts the
/// ``migrations`` applied to it.
///
/// - SeeAlso: https://www.sqlite.org/pragma.html#pragma_application_id
enum StateSchema {
    /// "SyAg": written into the database header so another program's database is never
    /// mistaken for ours.
    static let applicationID: Int64 = 0x5379_4167

    /// The steps from an empty file to the current layout; step `n` takes the file from
    /// version `n` to `n + 1`. Steps are only ever appended: released ones never change.
    static let migrations: [String] = [
        // Version 1. A `WITHOUT ROWID` table is stored in path order, which makes a lookup by
        // path one B-tree search and `ORDER BY path` free. `partial_present` tells "no
        // partial" (nil) apart from "a partial without validators".
        """
        CREATE TABLE files (
            path TEXT NOT NULL PRIMARY KEY,
            url TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            size INTEGER,
            partial_present INTEGER NOT NULL CHECK (partial_present IN (0, 1)),
            partial_etag TEXT,
            partial_last_modified TEXT,
            failed_attempts INTEGER NOT NULL,
            last_result_kind TEXT CHECK (last_result_kind IN ('downloaded', 'unchanged', 'failed')),
            last_result_message TEXT,
            last_result_date REAL,
            CHECK (partial_present OR (partial_etag IS NULL AND partial_last_modified IS NULL)),
            CHECK ((last_result_kind IS NULL) = (last_result_date IS NULL)),
            CHECK (last_result_kind IS NOT NULL OR last_result_message IS NULL)
        ) WITHOUT ROWID;
        """,
        // Version 2: when a failed file may be tried again (backoff, or the server's Retry-After).
        """
        ALTER TABLE files ADD COLUMN next_attempt REAL;
        """,
        // Version 3: a file the user paused or stopped is not started until they start it.
        """
        ALTER TABLE files ADD COLUMN hold TEXT CHECK (hold IN ('paused', 'stopped'));
        """,
        // Version 4: the same table with its CHECKs as comparisons. SQLite evaluates
        // `x IN ('a', 'b')` in a CHECK by building a temporary index of the list, on every
        // row written: three of them made saving a record cost twice what it does now.
        """
        CREATE TABLE files_v4 (
            path TEXT NOT NULL PRIMARY KEY,
            url TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            size INTEGER,
            partial_present INTEGER NOT NULL CHECK (partial_present = 0 OR partial_present = 1),
            partial_etag TEXT,
            partial_last_modified TEXT,
            failed_attempts INTEGER NOT NULL,
            last_result_kind TEXT
                CHECK (last_result_kind = 'downloaded' OR last_result_kind = 'unchanged' OR last_result_kind = 'failed'),
            last_result_message TEXT,
            last_result_date REAL,
            next_attempt REAL,
            hold TEXT CHECK (hold = 'paused' OR hold = 'stopped'),
            CHECK (partial_present OR (partial_etag IS NULL AND partial_last_modified IS NULL)),
            CHECK ((last_result_kind IS NULL) = (last_result_date IS NULL)),
            CHECK (last_result_kind IS NOT NULL OR last_result_message IS NULL)
        ) WITHOUT ROWID;
        INSERT INTO files_v4 SELECT
            path, url, etag, last_modified, size, partial_present, partial_etag, partial_last_modified,
            failed_attempts, last_result_kind, last_result_message, last_result_date, next_attempt, hold
            FROM files;
        DROP TABLE files;
        ALTER TABLE files_v4 RENAME TO files;
        """,
        // Version 5: the name a server gave a file (Content-Disposition), chosen once and kept;
        // the whole length of the version a partial belongs to, so a paused file shows its
        // total ("9.2 MB of 48.0 MB") when no agent runs.
        """
        ALTER TABLE files ADD COLUMN served_name TEXT;
        ALTER TABLE files ADD COLUMN partial_length INTEGER;
        """,
        // Version 6: feeds and their episodes. A feed is known by its folder (absolute), as a
        // file by its path: a feed removed and added back finds its history. An episode is
        // known by every key it was ever seen with (guid, enclosure URL, title and day), each
        // key of a feed owned by one episode; its file name is chosen once (`files` holds its
        // transfer record under the file's path, like any file's).
        """
        CREATE TABLE feeds (
            folder TEXT NOT NULL PRIMARY KEY,
            url TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            body_sha256 TEXT,
            moved_to TEXT,
            moved_by TEXT CHECK (moved_by = 'redirect' OR moved_by = 'new-feed-url'),
            gone_since REAL,
            last_check REAL,
            last_error TEXT,
            failed_attempts INTEGER NOT NULL,
            next_attempt REAL,
            hold TEXT CHECK (hold = 'paused' OR hold = 'stopped'),
            CHECK ((moved_to IS NULL) = (moved_by IS NULL))
        ) WITHOUT ROWID;
        CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            feed TEXT NOT NULL,
            file_name TEXT NOT NULL,
            state TEXT NOT NULL
                CHECK (state = 'skipped' OR state = 'wanted' OR state = 'done' OR state = 'deleted' OR state = 'failed'),
            title TEXT NOT NULL,
            url TEXT NOT NULL,
            published INTEGER,
            length INTEGER,
            UNIQUE (feed, file_name)
        );
        CREATE TABLE episode_keys (
            feed TEXT NOT NULL,
            key TEXT NOT NULL,
            episode INTEGER NOT NULL REFERENCES episodes (id),
            PRIMARY KEY (feed, key)
        ) WITHOUT ROWID;
        """,
        // Version 7: when housekeeping last ran (the prune of records no manifest entry owns,
        // `RecordRetention`), so it runs at most once a day whichever process runs it.
        """
        CREATE TABLE upkeep (
            task TEXT NOT NULL PRIMARY KEY,
            last_run REAL NOT NULL
        ) WITHOUT ROWID;
        """,
        // Version 8: `files` keyed by a rowid, its paths in a unique index beside it. SQLite
        // updates a row of a WITHOUT ROWID table by deleting it and inserting it again, a second
        // search of its path included; a rowid table's row is rewritten where it is, and the
        // index, whose path does not change, is not touched. A re-check's update of a result
        // costs a sixth less (13,800 against 11,200 instructions a row), an insert no more, a
        // read of a batch's records a twentieth more. The same columns, in the same order,
        // with the same constraints.
        filesTable(named: "files_v8") + """
        INSERT INTO files_v8 SELECT
            path, url, etag, last_modified, size, partial_present, partial_etag, partial_last_modified,
            failed_attempts, last_result_kind, last_result_message, last_result_date, next_attempt, hold,
            served_name, partial_length
            FROM files ORDER BY path;
        DROP TABLE files;
        ALTER TABLE files_v8 RENAME TO files;
        """,
    ]

    /// The `files` table as version 8 made it, under `name`.
    private static func filesTable(named name: String) -> String {
        """
        CREATE TABLE \(name) (
            path TEXT NOT NULL UNIQUE,
            url TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            size INTEGER,
            partial_present INTEGER NOT NULL CHECK (partial_present = 0 OR partial_present = 1),
            partial_etag TEXT,
            partial_last_modified TEXT,
            failed_attempts INTEGER NOT NULL,
            last_result_kind TEXT
                CHECK (last_result_kind = 'downloaded' OR last_result_kind = 'unchanged' OR last_result_kind = 'failed'),
            last_result_message TEXT,
            last_result_date REAL,
            next_attempt REAL,
            hold TEXT CHECK (hold = 'paused' OR hold = 'stopped'),
            served_name TEXT,
            partial_length INTEGER,
            CHECK (partial_present OR (partial_etag IS NULL AND partial_last_modified IS NULL)),
            CHECK ((last_result_kind IS NULL) = (last_result_date IS NULL)),
            CHECK (last_result_kind IS NOT NULL OR last_result_message IS NULL)
        );

        """
    }

    /// The current layout in one script, for an empty file: the tables ``migrations`` build
    /// step by step, without the copies and renames that bring an older file's rows along
    /// (making a new state cost 7.3 M instructions through every step, 2 M this way).
    /// `StateStoreTests` checks that both give the same schema.
    static let currentLayout = filesTable(named: "files") + migrations[5] + migrations[6]

    /// The layout version this build writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Makes the database ready for use: refuses a file that is not ours or is newer, turns
    /// on WAL, and creates or migrates the tables.
    static func prepare(_ database: SQLiteDatabase) throws(StateStoreError) {
        let refusal: StateStoreError?
        do {
            refusal = try prepareUnlessRefused(database)
        } catch {
            throw StateStoreError(error, while: "open the saved state", databasePath: database.path)
        }
        if let refusal { throw refusal }
    }

    /// Throws when the database cannot be read as it is: not ours, newer, damaged, or older
    /// than this version (its update is a write).
    static func checkReadable(_ database: SQLiteDatabase) throws(StateStoreError) {
        let refusal: StateStoreError?
        let version: Int64
        do {
            refusal = try Self.refusal(of: database)
            version = try integer("PRAGMA user_version", in: database)
        } catch {
            throw StateStoreError(error, while: "read the saved state", databasePath: database.path)
        }
        if let refusal { throw refusal }
        guard version == currentVersion else {
            throw StateStoreError(.storage, path: database.path, message: "\(database.path) was saved by an older syncagent; "
                + "a run without --dry-run updates it, and a dry run after that can read it.")
        }
    }

    /// Prepares the database, or returns why it must not be touched.
    private static func prepareUnlessRefused(_ database: SQLiteDatabase) throws(SQLiteError) -> StateStoreError? {
        // Check before changing anything, so a file that is not ours is left as it was.
        if let refusal = try refusal(of: database) { return refusal }
        // WAL: a commit appends to the log instead of rewriting pages, and readers do not
        // block the writer. NORMAL: no fsync per commit; a committed transaction survives the
        // process being killed at any instant, and a power cut may lose the last commits but
        // never corrupts the file. On a filesystem that cannot do WAL, SQLite keeps its
        // rollback journal, as safe against a kill and only slower, so that is not an error.
        // 512 KiB of page cache instead of SQLite's 2 MB: a batch reads its records once and
        // saves them in transactions of a few hundred, so pages evicted come back from the
        // system's page cache when at all, and 10,000 records' pages no longer stay in memory.
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -512;")
        // Up to date (the usual case): no need to take the write lock.
        guard try integer("PRAGMA user_version", in: database) < currentVersion else { return nil }
        return try database.transaction { () throws(SQLiteError) -> StateStoreError? in
            // Look again under the write lock: another process may have migrated meanwhile.
            if let refusal = try refusal(of: database) { return refusal }
            let version = try integer("PRAGMA user_version", in: database)
            guard version < currentVersion else { return nil }
            if version == 0 {
                try database.execute(currentLayout)
            } else {
                for step in migrations.dropFirst(Int(version)) {
                    try database.execute(step)
                }
            }
            try database.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(currentVersion);")
            return nil
        }
    }

    /// Why the database must not be used, or `nil` when it is ours (or still empty).
    private static func refusal(of database: SQLiteDatabase) throws(SQLiteError) -> StateStoreError? {
        let path = database.path
        let owner = try integer("PRAGMA application_id", in: database)
        let version = try integer("PRAGMA user_version", in: database)
        if owner == applicationID {
            guard version > currentVersion else { return nil }
            return StateStoreError(
                .newerVersion, path: path,
                message: "\(path) was written by a newer syncagent (state version \(version); this one "
                    + "reads up to version \(currentVersion)). Update syncagent, or move the file aside "
                    + "or run `syncagent reset` to start over."
            )
        }
        let objects = try integer("SELECT count(*) FROM sqlite_schema", in: database)
        if owner == 0, version == 0, objects == 0 { return nil }
        return StateStoreError(
            .notOurs, path: path,
            message: "\(path) is a database of another program, not syncagent's saved state. "
                + StateStoreError.startOverAdvice
        )
    }

    /// The integer the single-value query `sql` returns.
    private static func integer(_ sql: String, in database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
        guard case .integer(let value) = try database.singleValue(sql) else {
            throw SQLiteError(code: .error, message: "\"\(sql)\" did not return an integer")
        }
        return value
    }
}
