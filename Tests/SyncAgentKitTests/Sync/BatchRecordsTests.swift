import Foundation
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

    /// Every field comes back as it went in, those most records leave empty too.
    @Test(arguments: [
        FileRecord(path: "/d/plain", url: "https://example.org/plain"),
        FileRecord(path: "/d/unchanged", url: "https://example.org/u", validators: Validators(etag: "\"e\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"),
                   size: 0, lastResult: LastResult(kind: .unchanged, date: Date(timeIntervalSince1970: 1_763_700_000.5))),
        FileRecord(path: "/d/everything", url: "https://example.org/e", validators: Validators(etag: "W/\"w\""), size: 28_600_000,
                   partial: Validators(etag: "\"p\"", lastModified: "Wed, 16 Nov 1994 09:00:00 GMT"), failedAttempts: .max,
                   lastResult: LastResult(kind: .failed, message: "the server answered 503", date: Date(timeIntervalSince1970: -1)),
                   nextAttempt: Date(timeIntervalSince1970: 1_763_700_030.5), hold: .paused, servedName: "Served.pdf", partialLength: 40_000_000),
        FileRecord(path: "/d/empty-partial", url: "https://example.org/p", partial: Validators(), hold: .stopped),
        FileRecord(path: "/d/empty-message", url: "", lastResult: LastResult(kind: .downloaded, message: "", date: Date(timeIntervalSinceReferenceDate: 0))),
    ])
    func keepsEveryField(record: FileRecord) {
        var records = BatchRecords()
        records.insert(record)
        #expect(records[record.path] == record)
        #expect(records.remove(record.path) == record)
    }
}
