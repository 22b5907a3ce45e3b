import Testing
@testable import SyncAgentKit

/// The records a batch read, by path, until each is let go.
struct BatchRecordsTests {
    static func record(_ name: String, size: Int64 = 1) -> FileRecord {
        FileRecord(path: "/d/\(name)", url: "https://example.org/\(name)", size: size)
    }

    @Test func answersByPathUntilEachIsLetGo() {
        var records = BatchRecords()
        #expect(records.isEmpty)
        records.reserveCapacity(3)
        for name in ["a", "b", "c"] { records.insert(Self.record(name)) }
        #expect(records["/d/b"] == Self.record("b") && records["/d/none"] == nil)

        #expect(records.remove("/d/b") == Self.record("b"))
        #expect(records["/d/b"] == nil && records.remove("/d/b") == nil)
        #expect(records["/d/a"] == Self.record("a") && records["/d/c"] == Self.record("c"))
        #expect(!records.isEmpty)
    }

    @Test func aRecordInsertedAgainReplacesTheFirst() {
        var records = BatchRecords()
        records.insert(Self.record("a"))
        records.insert(Self.record("a", size: 2))
        #expect(records["/d/a"]?.size == 2)
        #expect(records.remove("/d/a")?.size == 2)
        #expect(records.isEmpty)
    }

    @Test func emptiedItStartsAfresh() {
        var records = BatchRecords()
        records.insert(Self.record("a"))
        _ = records.remove("/d/a")
        #expect(records.isEmpty)
        records.insert(Self.record("b"))
        #expect(records["/d/b"] == Self.record("b") && records["/d/a"] == nil)
    }
}
