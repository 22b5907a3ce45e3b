import Testing
@testable import SyncAgentKit

/// What a batch knows of its files, by path: records read, paths read with none, changes,
/// each until let go.
struct BatchRecordsTests {
    static func record(_ name: String, size: Int64 = 1) -> FileRecord {
        FileRecord(path: "/d/\(name)", url: "https://example.org/\(name)", size: size)
    }

    /// Changes `path` with `body`, from the record known or (nothing known) from `unknown`.
    /// The changes `records` hands over.
    static func take(_ records: inout BatchRecords) -> [(record: FileRecord, before: FileRecord?)] {
        var taken: [(record: FileRecord, before: FileRecord?)] = []
        records.takeChanges { taken.append(($0, $1)) }
        return taken
    }

    static func change(_ records: inout BatchRecords, _ name: String, unknown: FileRecord? = nil, _ body: (inout FileRecord) -> Void) {
        records.change("/d/\(name)", unknown: { unknown }, start: { $0 ?? FileRecord(path: "/d/\(name)", url: "https://example.org/\(name)") }, body)
    }

    @Test func answersByPathWhatWasReadAndWhatNot() {
        var records = BatchRecords()
        #expect(records.isEmpty)
        records.reserveCapacity(4)
        for name in ["a", "b", "c"] { records.insert(Self.record(name)) }
        records.insertAbsent("/d/none")
        #expect(records["/d/b"] == .some(Self.record("b")))
        #expect(records["/d/none"] == .some(nil), "read with no record")
        #expect(records["/d/unknown"] == nil, "never read: the store answers")
        #expect(records.knows("/d/none") && !records.knows("/d/unknown"))
        #expect(!records.isEmpty && records.changeCount == 0)
    }

    @Test func aRecordInsertedAgainReplacesTheFirst() {
        var records = BatchRecords()
        records.insert(Self.record("a"))
        records.insert(Self.record("a", size: 2))
        #expect(records["/d/a"]??.size == 2)
    }

    @Test func aChangeIsAnsweredAtOnceAndTakenWithTheRecordItReplaced() {
        var records = BatchRecords()
        records.insert(Self.record("a"))
        Self.change(&records, "a") { $0.size = 2 }
        Self.change(&records, "a") { $0.failedAttempts = 1 }
        #expect(records["/d/a"]??.size == 2 && records["/d/a"]??.failedAttempts == 1)
        #expect(records.changeCount == 1, "changed twice, saved once")

        let taken = Self.take(&records)
        #expect(taken.count == 1)
        #expect(taken.first?.record.size == 2 && taken.first?.record.failedAttempts == 1)
        #expect(taken.first?.before == Self.record("a"), "the record as read, for a save of its result alone")
        #expect(records["/d/a"] == nil, "let go once taken: the store answers")
        #expect(records.isEmpty && records.changeCount == 0)
    }

    @Test func aPathReadWithNoRecordOrNeverReadIsChangedFromNothingOrTheStores() {
        var records = BatchRecords()
        records.insert(Self.record("kept"))
        records.insertAbsent("/d/new")
        Self.change(&records, "new", unknown: Self.record("new", size: 9)) { $0.size = 3 }
        Self.change(&records, "other", unknown: Self.record("other", size: 7)) { $0.failedAttempts = 2 }
        #expect(records["/d/new"]??.size == 3, "read with none: not asked of the store again")
        #expect(records["/d/other"]??.size == 7 && records["/d/other"]??.failedAttempts == 2)

        let taken = Self.take(&records)
        #expect(taken.map { $0.record.path } == ["/d/new", "/d/other"], "in the order of their first change")
        #expect(taken[0].before == nil)
        #expect(taken[1].before == Self.record("other", size: 7))
        #expect(records["/d/kept"] == .some(Self.record("kept")), "a record not changed stays")
    }

    @Test func aPlaceLetGoIsTakenByTheNextChange() {
        var records = BatchRecords()
        records.insert(Self.record("kept"))
        for name in ["a", "b", "c"] {
            records.insertAbsent("/d/\(name)")
            Self.change(&records, name) { $0.size = 1 }
            _ = Self.take(&records)
        }
        Self.change(&records, "d") { $0.size = 4 }
        #expect(records["/d/d"]??.size == 4)
        #expect(records["/d/kept"] == .some(Self.record("kept")))
        #expect(records["/d/a"] == nil && records["/d/c"] == nil)
    }

    @Test func emptiedItStartsAfresh() {
        var records = BatchRecords()
        records.insert(Self.record("a"))
        Self.change(&records, "a") { $0.size = 5 }
        _ = Self.take(&records)
        #expect(records.isEmpty)
        records.insert(Self.record("b"))
        #expect(records["/d/b"] == .some(Self.record("b")) && records["/d/a"] == nil)
    }
}
