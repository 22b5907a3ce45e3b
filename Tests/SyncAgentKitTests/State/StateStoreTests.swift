import Foundation
import Testing
@testable import SyncAgentKit

/// Each test gets a fresh state folder that does not exist yet, removed when the test ends.
final class StateStoreTests {
    let root: String
    let directory: String
    var databasePath: String { directory + "/state.sqlite3" }

    init() {
        root = FileManager.default.temporaryDirectory.path + "/syncagent-state-\(UUID().uuidString)"
        directory = root + "/xdg-state/syncagent"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A record with every optional field set, none of them equal to another record's.
    static func fullRecord(_ name: String) -> FileRecord {
        FileRecord(
            path: "/home/user/Downloads/\(name).pdf",
            url: "https://developer.apple.com/library/\(name).pdf",
            validators: Validators(etag: "W/\"\(name)-etag\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"),
            size: 28_600_000,
            partial: Validators(etag: "\"\(name)-partial\"", lastModified: "Wed, 16 Nov 1994 09:00:00 GMT"),
            failedAttempts: 3,
            lastResult: LastResult(
                kind: .failed, message: "the server answered 503 Service Unavailable",
                date: Date(timeIntervalSince1970: 1_763_700_000.123)
            ),
            nextAttempt: Date(timeIntervalSince1970: 1_763_700_030.5),
            hold: .paused
        )
    }

    @Test func createsTheDatabaseFile() throws {
        let store = try StateStore(directory: directory + "/")
        #expect(store.databasePath == databasePath)
        #expect(FileManager.default.fileExists(atPath: databasePath))
    }

    @Test func roundTripsEveryField() throws {
        let store = try StateStore(directory: directory)
        let record = Self.fullRecord("guide")
        try store.save(record)
        #expect(try store.record(forPath: record.path) == record)
    }

    @Test(arguments: [
        FileRecord(path: "/a", url: "https://example.com/a"),
        FileRecord(path: "/b", url: "https://example.com/b", partial: Validators()),
        FileRecord(path: "/c", url: "https://example.com/c", validators: Validators(etag: "\"e\""), size: 0),
        FileRecord(
            path: "/d", url: "https://example.com/d",
            partial: Validators(lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"),
            lastResult: LastResult(kind: .unchanged, date: Date(timeIntervalSince1970: 0))
        ),
        FileRecord(
            path: "/e ünïcødé/ファイル.pdf", url: "https://example.com/%E2%9C%93", validators: Validators(etag: ""),
            failedAttempts: Int.max,
            lastResult: LastResult(kind: .downloaded, message: "", date: Date(timeIntervalSince1970: -1.5))
        ),
    ])
    func roundTripsNilsAndEdgeValues(record: FileRecord) throws {
        let store = try StateStore(directory: directory)
        try store.save(record)
        #expect(try store.record(forPath: record.path) == record)
    }

    /// `Date` counts from 2001 and the store from 1970, so a date that was not made from Unix
    /// time can move by a rounding step (a fraction of a microsecond today) on the way.
    @Test func keepsTodaysDateWithinAMicrosecond() throws {
        let store = try StateStore(directory: directory)
        let now = Date()
        var record = FileRecord(path: "/now", url: "https://example.com/now")
        record.lastResult = LastResult(kind: .downloaded, date: now)
        try store.save(record)
        let saved = try #require(try store.record(forPath: "/now")?.lastResult?.date)
        #expect(abs(saved.timeIntervalSince(now)) < 0.000_001)
    }

    @Test func aMissingRecordIsNil() throws {
        let store = try StateStore(directory: directory)
        #expect(try store.record(forPath: "/nothing") == nil)
        #expect(try store.records().isEmpty)
    }

    @Test func readsTheRecordsOfTheGivenPathsOnly() throws {
        let store = try StateStore(directory: directory)
        // Names JSON must escape (control characters too), and one beyond ASCII, among
        // records of other files.
        let asked = ["quote\"d", "back\\slash", "new\nline", "tab\tand\u{1F}unit", "Übersicht – 2026", "plain"].map(Self.fullRecord)
        let others = (0..<50).map { Self.fullRecord("other-\($0)") }
        try store.saveTransferResults(asked + others)
        let read = try store.records(forPaths: asked.map(\.path) + ["/home/user/Downloads/never-saved.pdf"])
        #expect(read.sorted { $0.path < $1.path } == asked.sorted { $0.path < $1.path })
        #expect(try store.records(forPaths: []).isEmpty)
    }

    /// The listed paths drive the query, each one search of the paths' index: no temporary
    /// index of the list is built, and records come in the order asked for.
    @Test func readsTheGivenPathsInTheirOrderByIndexSearches() throws {
        let store = try StateStore(directory: directory)
        let records = ["c", "a", "b"].map(Self.fullRecord)
        try store.save(records)
        let asked = ["b", "never-saved", "c", "a"].map { Self.fullRecord($0).path }
        #expect(try store.records(forPaths: asked).map(\.path) == ["b", "c", "a"].map { Self.fullRecord($0).path })
        let plan = try store.database.withStatement("EXPLAIN QUERY PLAN " + StateStore.selectSomeSQL) {
            statement throws(SQLiteError) in
            var details: [String] = []
            while try statement.step() == .row { details.append(statement.text(at: 3) ?? "") }
            return details
        }
        #expect(plan.count == 2)
        #expect(plan.first?.hasPrefix("SCAN listed") == true)
        #expect(plan.last?.hasPrefix("SEARCH files USING INDEX sqlite_autoindex_files_1 (path=?)") == true)
    }

    /// A batch reads 10,000 records beside the 10,000 paths it asked with: each record holds
    /// the asked string, not a second copy of its bytes.
    @Test func recordsReadForPathsHoldTheAskedPathStrings() throws {
        let store = try StateStore(directory: directory)
        try store.save(["a name long enough to be kept apart.pdf", "b"].map(Self.fullRecord))
        let asked = ["never saved", "b", "a name long enough to be kept apart.pdf"].map { Self.fullRecord($0).path }
        let read = try store.records(forPaths: asked)
        #expect(read.map(\.path) == [asked[1], asked[2]])
        func storage(_ text: String) -> UnsafePointer<UInt8>? { text.utf8.withContiguousStorageIfAvailable(\.baseAddress) ?? nil }
        #expect(storage(read[1].path) == storage(asked[2]))
    }

    /// ... and the entry's URL string, given beside the path, when the record was saved with it;
    /// a record saved with another URL keeps its own.
    @Test func recordsReadForPathsHoldTheGivenURLStringsOfTheSameURL() throws {
        let store = try StateStore(directory: directory)
        try store.save(["a", "b"].map(Self.fullRecord))
        let paths = ["a", "b"].map { Self.fullRecord($0).path }
        let urls = [Self.fullRecord("a").url, "https://developer.apple.com/library/moved.pdf"]
        let read = try store.records(forPaths: paths, urls: urls)
        #expect(read == ["a", "b"].map(Self.fullRecord))
        func storage(_ text: String) -> UnsafePointer<UInt8>? { text.utf8.withContiguousStorageIfAvailable(\.baseAddress) ?? nil }
        #expect(storage(read[0].url) == storage(urls[0]))
        #expect(read[1].url == Self.fullRecord("b").url)
    }

    @Test func saveReplacesTheRecordOfTheSamePath() throws {
        let store = try StateStore(directory: directory)
        let full = Self.fullRecord("guide")
        try store.save(full)
        let cleared = FileRecord(path: full.path, url: "https://example.com/moved.pdf", size: 12)
        try store.save(cleared)
        #expect(try store.record(forPath: full.path) == cleared)
        #expect(try store.records() == [cleared])
    }

    @Test func recordsAreSortedByPath() throws {
        let store = try StateStore(directory: directory)
        let paths = ["/b/z.pdf", "/a.pdf", "/b/a.pdf", "/B.pdf", "/é.pdf", "/a b.pdf"]
        try store.save(paths.map { FileRecord(path: $0, url: "https://example.com\($0)") })
        // Byte order of UTF-8: upper case before lower case, space before letters, "é" last.
        #expect(try store.records().map(\.path) == ["/B.pdf", "/a b.pdf", "/a.pdf", "/b/a.pdf", "/b/z.pdf", "/é.pdf"])
    }

    @Test func removeRecordForgetsOnlyThatPath() throws {
        let store = try StateStore(directory: directory)
        try store.save([Self.fullRecord("one"), Self.fullRecord("two")])
        #expect(try store.removeRecord(forPath: Self.fullRecord("one").path))
        #expect(try store.removeRecord(forPath: Self.fullRecord("one").path) == false)
        #expect(try store.records() == [Self.fullRecord("two")])
    }

    @Test func removeAllForgetsEverything() throws {
        let store = try StateStore(directory: directory)
        try store.save([Self.fullRecord("one"), Self.fullRecord("two")])
        try store.removeAll()
        #expect(try store.records().isEmpty)
    }

    @Test func savesTenThousandRecordsInOneCall() throws {
        let store = try StateStore(directory: directory)
        let records = (0..<10_000).map { index in
            var record = Self.fullRecord(String(format: "file-%05d", index))
            record.size = Int64(index)
            record.partial = index.isMultiple(of: 2) ? nil : record.partial
            return record
        }
        try store.save(records.shuffled())
        #expect(try store.records() == records)
        #expect(try store.record(forPath: records[7_777].path) == records[7_777])
    }

    @Test func aBatchIsSavedWhollyOrNotAtAll() throws {
        let store = try StateStore(directory: directory)
        // A trigger stands in for a failure half-way through the batch (a full disk, say).
        try store.database.execute("""
            CREATE TEMP TRIGGER refuse BEFORE INSERT ON files WHEN NEW.path = '/poison'
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """)
        let batch = ["/a", "/b", "/poison", "/c"].map { FileRecord(path: $0, url: "https://example.com\($0)") }
        let error = #expect(throws: StateStoreError.self) { try store.save(batch) }
        #expect(error?.code == .storage)
        #expect(error?.message == "Could not save the state of 4 files in \(databasePath): refused by the test.")
        #expect(try store.records().isEmpty)
        // The failed transaction is over: the store goes on working.
        try store.save(batch[0])
        #expect(try store.records() == [batch[0]])
    }

    @Test func reopeningKeepsTheData() throws {
        let records = [Self.fullRecord("one"), FileRecord(path: "/two", url: "https://example.com/two")]
        do {
            let store = try StateStore(directory: directory)
            try store.save(records)
        }
        let reopened = try StateStore(directory: directory)
        #expect(try reopened.records() == records)
    }

    /// The size of the log, or `nil` when there is none.
    var logSize: Int64? {
        var log = stat()
        return stat(databasePath + "-wal", &log) == 0 ? Int64(log.st_size) : nil
    }

    /// Closing after a few changes does not copy them into the file (no device flushes): they
    /// stay in the log, where the next store finds them.
    @Test func aFewChangesStayInTheLogAtClosingAndTheNextStoreReadsThem() throws {
        do {
            let store = try StateStore(directory: directory)
            try store.save(Self.fullRecord("one"))
        }
        #expect((logSize ?? 0) > 0, "the log was checkpointed and deleted")
        #expect(try StateStore(directory: directory).records() == [Self.fullRecord("one")])
    }

    /// Past ``StateStore/logKeptOnClose`` closing checkpoints, as SQLite does by default, so
    /// no opening has much log to read back.
    @Test func aLogOverTheLimitIsCheckpointedAtClosing() throws {
        let records = (0..<3_000).map { Self.fullRecord("file\($0)") }
        do {
            let store = try StateStore(directory: directory)
            try store.save(records)
            #expect((logSize ?? 0) > StateStore.logKeptOnClose)
        }
        #expect(logSize == nil, "the log was left at closing")
        #expect(try StateStore(directory: directory).records().count == records.count)
    }

    /// A dry run reads a log left at closing, and leaves every byte of the folder as it was:
    /// SQLite would otherwise rebuild the shared memory (-shm) file as the first to open it.
    @Test func aReaderSeesALogLeftAtClosingAndChangesNothing() throws {
        do {
            let store = try StateStore(directory: directory)
            try store.save(Self.fullRecord("one"))
        }
        func folder() throws -> [String: String] {
            var entries: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                var info = stat()
                lstat(directory + "/" + name, &info)
                let bytes = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
                entries[name] = "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(bytes.hashValue)"
            }
            return entries
        }
        let before = try folder()
        #expect(before.keys.contains("state.sqlite3-wal"))
        do {
            let reader = try StateStore(readingOnlyIn: directory)
            #expect(try reader.records() == [Self.fullRecord("one")])
        }
        #expect(try folder() == before)
    }

    @Test func twoStoresOnOneFolderSeeEachOthersSaves() throws {
        // The agent and `syncagent status` may have the state open at once.
        let agent = try StateStore(directory: directory)
        let status = try StateStore(directory: directory)
        try agent.save(Self.fullRecord("one"))
        #expect(try status.records() == [Self.fullRecord("one")])
        try status.save(Self.fullRecord("two"))
        #expect(try agent.records() == [Self.fullRecord("one"), Self.fullRecord("two")])
    }

    @Test func runsInWALModeWithNormalSynchronous() throws {
        let store = try StateStore(directory: directory)
        try store.save(Self.fullRecord("one"))
        #expect(try store.database.singleValue("PRAGMA synchronous") == .integer(1))
        // Journal mode is a property of the file: another connection sees it too.
        let other = try SQLiteDatabase(path: databasePath, flags: [.readOnly])
        #expect(try other.singleValue("PRAGMA journal_mode") == .text("wal"))
        #expect(FileManager.default.fileExists(atPath: databasePath + "-wal"))
    }

    /// SQLite's default would keep up to 2 MB of a big state's pages in memory.
    @Test func keepsAtMostHalfAMebibyteOfPagesInMemory() throws {
        let store = try StateStore(directory: directory)
        #expect(try store.database.singleValue("PRAGMA cache_size") == .integer(-512))
    }

    @Test func marksTheFileAsOursWithTheCurrentVersion() throws {
        _ = try StateStore(directory: directory)
        let database = try SQLiteDatabase(path: databasePath, flags: [.readOnly])
        #expect(try database.singleValue("PRAGMA application_id") == .integer(StateSchema.applicationID))
        #expect(try database.singleValue("PRAGMA user_version") == .integer(StateSchema.currentVersion))
    }

    /// A new state is made in one script, not step by step: the same tables, columns,
    /// constraints and indexes as every migration applied in turn.
    @Test func aNewStateHasTheLayoutEveryMigrationMakes() throws {
        func layout(_ database: SQLiteDatabase) throws -> [String] {
            let statement = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
            var rows: [String] = []
            while try statement.step() == .row {
                // A renamed table's statement names it in quotes; spaces and line breaks differ.
                let sql = (statement.text(at: 3) ?? "").replacingOccurrences(of: "\"", with: "")
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                rows.append([statement.text(at: 0), statement.text(at: 1), statement.text(at: 2)].map { $0 ?? "" }.joined(separator: " ") + " " + sql)
            }
            return rows
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stepByStep = try SQLiteDatabase(path: directory + "/steps.sqlite3")
        for step in StateSchema.migrations { try stepByStep.execute(step) }
        let store = try StateStore(directory: directory)
        let made = try layout(store.database)
        #expect(made == (try layout(stepByStep)))
        #expect(made.contains { $0.hasPrefix("index sqlite_autoindex_files_1 files") })
        #expect(made.count == 7)
    }

    /// Version 8 moves `files` to a rowid table: every record of a version 7 file comes
    /// along whole, and the path stays unique.
    @Test func aVersion7FileKeepsEveryRecordInItsRowidTable() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var served = Self.fullRecord("two")
        served.servedName = "Served name.pdf"
        served.partialLength = 28_600_000
        let records = [Self.fullRecord("one"), served, FileRecord(path: "/home/user/Downloads/bare", url: "https://example.org/bare")]
        do {
            let old = try SQLiteDatabase(path: databasePath)
            for step in StateSchema.migrations.prefix(7) { try old.execute(step) }
            try old.execute("PRAGMA application_id = \(StateSchema.applicationID); PRAGMA user_version = 7;")
            let insert = try old.prepare("INSERT INTO files (\(FileRecord.sqliteColumns.joined(separator: ", "))) VALUES ("
                + FileRecord.sqliteColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ") + ")")
            for record in records {
                try record.bind(to: insert)
                try insert.run()
                insert.reset()
            }
        }
        let store = try StateStore(directory: directory)
        #expect(try store.database.singleValue("PRAGMA user_version") == .integer(8))
        #expect(try store.records() == records.sorted { $0.path < $1.path })
        #expect(try store.database.singleValue("SELECT count(rowid) FROM files") == .integer(3))
        #expect(throws: SQLiteError.self) {
            try store.database.execute("INSERT INTO files (path, url, partial_present, failed_attempts) SELECT path, url, 0, 0 FROM files")
        }
    }

    /// A file written by an older syncagent (version 3) keeps every record when opened, and
    /// its table then refuses the same bad values as before.
    @Test func anOlderFileIsBroughtUpToDateWithItsRecords() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: databasePath)
            for step in StateSchema.migrations.prefix(3) { try old.execute(step) }
            try old.execute("""
                INSERT INTO files VALUES ('/home/user/Downloads/one.pdf', 'https://developer.apple.com/library/one.pdf',
                    'W/"one-etag"', 'Tue, 15 Nov 1994 08:12:31 GMT', 28600000, 1, '"one-partial"',
                    'Wed, 16 Nov 1994 09:00:00 GMT', 3, 'failed', 'the server answered 503 Service Unavailable',
                    1763700000.123, 1763700030.5, 'paused');
                PRAGMA application_id = \(StateSchema.applicationID); PRAGMA user_version = 3;
                """)
        }
        let store = try StateStore(directory: directory)
        #expect(try store.records() == [Self.fullRecord("one")])
        let database = try SQLiteDatabase(path: databasePath)
        #expect(try database.singleValue("PRAGMA user_version") == .integer(StateSchema.currentVersion))
        #expect(throws: SQLiteError.self) {
            try database.execute("UPDATE files SET hold = 'forgotten'")
        }
        #expect(throws: SQLiteError.self) {
            try database.execute("UPDATE files SET last_result_kind = 'maybe'")
        }
    }

    /// A record saved with no hold, then held (`hold`) by the user, and what a re-check that
    /// read it before the hold learnt: the file is unchanged.
    static func recheckOfARecordHeldMeanwhile(_ hold: Hold, in store: StateStore) throws -> (readBefore: FileRecord, learnt: FileRecord) {
        var readBefore = fullRecord("one")
        readBefore.hold = nil
        try store.save(readBefore)
        var held = readBefore
        held.hold = hold
        try store.save(held)
        var learnt = readBefore
        learnt.failedAttempts = 0
        learnt.lastResult = LastResult(kind: .unchanged, date: Date(timeIntervalSince1970: 1_763_800_000))
        learnt.nextAttempt = nil
        return (readBefore, learnt)
    }

    /// The user's hold belongs to `pause` and `stop`: saving what a transfer learnt never
    /// overwrites it, even from a record read before the hold was set.
    @Test func savingTransferResultsKeepsTheHoldAndInsertsNewRecords() throws {
        let store = try StateStore(directory: directory)
        let (_, learnt) = try Self.recheckOfARecordHeldMeanwhile(.stopped, in: store)
        var new = Self.fullRecord("two")
        new.hold = .paused
        try store.saveTransferResults([learnt, new])
        var expected = learnt
        expected.hold = .stopped
        #expect(try store.records() == [expected, new])
    }

    /// A re-check changes a record's result only: saved as such, the row's result columns
    /// change and nothing else, the hold set meanwhile included.
    @Test func savingResultsOnlyChangesTheResultColumns() throws {
        let store = try StateStore(directory: directory)
        let (readBefore, learnt) = try Self.recheckOfARecordHeldMeanwhile(.paused, in: store)
        #expect(learnt.differsOnlyInResult(from: readBefore))
        try store.saveTransferResults([], resultsOnly: [learnt])
        var expected = learnt
        expected.hold = .paused
        #expect(try store.records() == [expected])
    }

    /// A record whose row is gone (a `reset` meanwhile) is saved whole, as an upsert would.
    @Test func savingTheResultOfAVanishedRowSavesItWhole() throws {
        let store = try StateStore(directory: directory)
        let record = Self.fullRecord("gone")
        try store.save(record)
        #expect(try store.removeRecord(forPath: record.path))
        try store.saveTransferResults([], resultsOnly: [record])
        #expect(try store.records() == [record])
    }

    @Test func onlyResultFieldsCountAsAResultChange() {
        let before = Self.fullRecord("one")
        var after = before
        after.failedAttempts = 0
        after.lastResult = nil
        after.nextAttempt = nil
        #expect(after.differsOnlyInResult(from: before))
        after.validators = Validators(etag: "\"new\"")
        #expect(!after.differsOnlyInResult(from: before))
        var moved = before
        moved.partial = nil
        #expect(!moved.differsOnlyInResult(from: before))
        // Every other field counts, the rare ones too, whether or not the records share a box.
        let changes: [(inout FileRecord) -> Void] = [
            { $0.path += "x" }, { $0.url += "x" }, { $0.size = 1 }, { $0.hold = nil }, { $0.servedName = "Served.pdf" },
            { $0.partialLength = 9 }, { $0.partial = Validators(etag: "\"other\"") }, { $0.validators.lastModified = nil },
        ]
        for change in changes {
            var changed = before
            change(&changed)
            #expect(!changed.differsOnlyInResult(from: before))
            #expect(!before.differsOnlyInResult(from: changed))
            changed.failedAttempts = 0
            changed.nextAttempt = nil
            #expect(!changed.differsOnlyInResult(from: before))
        }
        var onlyMessage = before
        onlyMessage.lastResult?.message = "another reason"
        #expect(onlyMessage.differsOnlyInResult(from: before))
        #expect(before.differsOnlyInResult(from: before))
    }

    @Test func anEmptyFileIsANewDatabase() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write(Data(), to: databasePath)
        let store = try StateStore(directory: directory)
        try store.save(Self.fullRecord("one"))
        #expect(try store.records() == [Self.fullRecord("one")])
    }

    @Test func aGarbageFileGivesAClearErrorAndIsLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "not a database\n", count: 500).utf8)
        try write(garbage, to: databasePath)

        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        #expect(error?.code == .damaged)
        #expect(error?.path == databasePath)
        #expect(
            error?.message == "\(databasePath) is damaged or is not a syncagent state database "
                + "(file is not a database). "
                + "Move it aside or run `syncagent reset` to start over."
        )
        #expect(FileManager.default.contents(atPath: databasePath) == garbage)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let foreign = try SQLiteDatabase(path: databasePath)
            try foreign.execute("CREATE TABLE bookmarks (url TEXT)")
        }
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        #expect(error?.code == .notOurs)
        #expect(
            error?.message == "\(databasePath) is a database of another program, not syncagent's saved state. "
                + "Move it aside or run `syncagent reset` to start over."
        )
        let foreign = try SQLiteDatabase(path: databasePath, flags: [.readOnly])
        #expect(try foreign.singleValue("PRAGMA journal_mode") == .text("delete"))
        #expect(try foreign.singleValue("PRAGMA application_id") == .integer(0))
    }

    @Test func aNewerVersionIsRefused() throws {
        _ = try StateStore(directory: directory)
        do {
            let database = try SQLiteDatabase(path: databasePath)
            try database.execute("PRAGMA user_version = 99")
        }
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }
        #expect(error?.code == .newerVersion)
        #expect(
            error?.message == "\(databasePath) was written by a newer syncagent (state version 99; this one reads "
                + "up to version \(StateSchema.currentVersion)). Update syncagent, or move the file aside or run "
                + "`syncagent reset` to start over."
        )
    }

    @Test func damageFoundWhileReadingGivesTheSameAdvice() throws {
        do {
            let store = try StateStore(directory: directory)
            try store.save((0..<2_000).map { Self.fullRecord("file-\($0)") })
        }
        // Closing the last connection checkpoints the log into the file; overwrite table pages.
        let handle = try #require(FileHandle(forWritingAtPath: databasePath))
        try handle.seek(toOffset: 16_384)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 32_768))
        try handle.close()

        let error = #expect(throws: StateStoreError.self) {
            let store = try StateStore(directory: directory)
            _ = try store.records()
        }
        #expect(error?.code == .damaged)
        #expect(error?.message.hasPrefix("\(databasePath) is damaged") == true)
        #expect(error?.message.hasSuffix("Move it aside or run `syncagent reset` to start over.") == true)
    }

    @Test func aFolderThatCannotBeCreatedIsNamed() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try write(Data("x".utf8), to: root + "/file")
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: root + "/file/syncagent") }
        #expect(error?.code == .cannotCreateDirectory)
        #expect(error?.message == "Could not create the state folder \(root)/file/syncagent: not a directory.")
    }

    @Test func aFileInThePlaceOfTheFolderIsNamed() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try write(Data("x".utf8), to: root + "/syncagent")
        let error = #expect(throws: StateStoreError.self) { try StateStore(directory: root + "/syncagent") }
        #expect(
            error?.message == "Could not create the state folder \(root)/syncagent: a file of that name is in the way."
        )
    }

    @Test func createsEveryMissingParentPrivately() throws {
        _ = try StateStore(directory: directory)
        for folder in [root, root + "/xdg-state", directory] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(folder)")
        }
    }

    @Test func removeDatabaseLetsADamagedStateStartOver() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write(Data(repeating: 0x41, count: 4096), to: databasePath)
        #expect(throws: StateStoreError.self) { try StateStore(directory: directory) }

        try StateStore.removeDatabase(inDirectory: directory)
        try StateStore.removeDatabase(inDirectory: directory)
        let store = try StateStore(directory: directory)
        #expect(try store.records().isEmpty)
    }
}
