import Foundation
import Testing
@testable import SyncAgentKit

/// Reading a batch's records in one walk of the table when its paths come in the table's
/// order: the same records as the list query, the other files' records between them skipped,
/// and a range crowded with them finished through the list.
final class StateStorePathOrderTests {
    let root = FileManager.default.temporaryDirectory.path + "/syncagent-order-\(UUID().uuidString)"
    var directory: String { root + "/state" }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Byte order, as SQLite's `BINARY` collation: upper case before lower, a prefix before
    /// what extends it, UTF-8 beyond ASCII after all of ASCII.
    @Test func pathsInByteOrderAreAscendingAndNoOthers() {
        #expect(StateStore.ascending(["/a/B", "/a/a", "/a/ab", "/a/b", "/a/z", "/a/é", "/a/\u{1F600}"]))
        #expect(StateStore.ascending(["/one"]))
        #expect(StateStore.ascending([]))
        #expect(!StateStore.ascending(["/a/b", "/a/a"]))
        #expect(!StateStore.ascending(["/a/a", "/a/a"]), "a path twice goes through the list, which returns it twice")
        #expect(!StateStore.ascending(["/a/é", "/a/z"]))
        #expect(!StateStore.ascending(["/a/ab", "/a/a"]))
    }

    /// The order the walk assumes is the order SQLite keeps the table in.
    @Test func theTableKeepsPathsInTheOrderAscendingChecks() throws {
        let store = try StateStore(directory: directory)
        let paths = ["/a/\u{1F600}", "/a/z", "/a/B", "/a/é", "/a/ab", "/a/a", "/a/b", "/a/a\u{0}b"]
        try store.save(paths.map { FileRecord(path: $0, url: "http://127.0.0.1/x") })
        let saved = try store.records().map(\.path)
        #expect(StateStore.ascending(saved))
        #expect(Set(saved) == Set(paths))
    }

    /// Paths in order, some never saved, other files' records before, between and after them:
    /// the records asked for, in the order asked, as the list query reads them.
    @Test func readsTheRecordsOfOrderedPathsAsTheListDoes() throws {
        let store = try StateStore(directory: directory)
        let asked = (0..<40).map { String(format: "/d/f%03d", $0 * 2) }
        let saved = asked.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        let others = (0..<40).map { String(format: "/d/f%03d", $0 * 2 + 1) } + ["/a/first", "/z/last"]
        try store.save((saved + others).map { StateStoreTests.fullRecord(String($0.dropFirst())) })
        let askedPaths = asked.map { StateStoreTests.fullRecord(String($0.dropFirst())).path }
        let urls = askedPaths.map { _ in StateStoreTests.fullRecord("d/f002").url }
        let inOrder = try #require(try store.recordsInPathOrder(forPaths: askedPaths, urls: urls))
        #expect(inOrder == (try store.recordsByList(forPaths: askedPaths, urls: urls)))
        #expect(inOrder.map(\.path) == saved.map { StateStoreTests.fullRecord(String($0.dropFirst())).path })
        #expect(try store.records(forPaths: askedPaths, urls: urls) == inOrder)
    }

    /// Other files' records crowding the range past two rows a path: the walk stops there,
    /// and the paths it did not reach are read through the list.
    @Test func aCrowdedRangeIsFinishedThroughTheList() throws {
        let store = try StateStore(directory: directory)
        let asked = ["/d/a", "/d/b", "/d/m", "/d/z"]
        let crowd = (0..<20).map { "/d/c\($0)" }
        try store.save((["/d/a", "/d/m", "/d/z"] + crowd).map { FileRecord(path: $0, url: "http://127.0.0.1\($0)") })
        let read = try #require(try store.recordsInPathOrder(forPaths: asked, urls: nil))
        #expect(read.map(\.path) == ["/d/a", "/d/m", "/d/z"])
        #expect(read.map(\.url) == ["/d/a", "/d/m", "/d/z"].map { "http://127.0.0.1\($0)" })
    }

    /// Paths out of order, or one twice, are left to the list query.
    @Test func pathsOutOfOrderAreLeftToTheList() throws {
        let store = try StateStore(directory: directory)
        try store.save(["/d/a", "/d/b"].map { FileRecord(path: $0, url: "http://127.0.0.1\($0)") })
        #expect(try store.recordsInPathOrder(forPaths: ["/d/b", "/d/a"], urls: nil) == nil)
        #expect(try store.records(forPaths: ["/d/b", "/d/a"]).map(\.path) == ["/d/b", "/d/a"])
        #expect(try store.records(forPaths: ["/d/a", "/d/a"]).map(\.path) == ["/d/a", "/d/a"])
    }

    /// The range is one search of the paths' index and a walk along it: no sort, no scan of
    /// the whole table.
    @Test func theRangeIsReadAlongThePrimaryKey() throws {
        let store = try StateStore(directory: directory)
        let plan = try store.database.withStatement("EXPLAIN QUERY PLAN " + StateStore.selectRangeSQL) {
            statement throws(SQLiteError) in
            var details: [String] = []
            while try statement.step() == .row { details.append(statement.text(at: 3) ?? "") }
            return details
        }
        #expect(plan == ["SEARCH files USING INDEX sqlite_autoindex_files_1 (path>? AND path<?)"])
    }

    /// Records read one after another with the same `Last-Modified` (files published together)
    /// share one string of it; a record with another has its own.
    @Test func recordsReadInARowShareTheirLastModifiedText() throws {
        let store = try StateStore(directory: directory)
        let shared = "Sat, 28 Nov 2026 05:10:03 GMT"
        let dates = [shared, shared, "Sun, 29 Nov 2026 05:10:03 GMT", shared]
        let saved = dates.enumerated().map { FileRecord(path: "/d/f\($0.offset)", url: "http://127.0.0.1/f", validators: Validators(lastModified: $0.element)) }
        try store.save(saved)
        func storage(_ text: String?) -> UnsafePointer<UInt8>? { text?.utf8.withContiguousStorageIfAvailable(\.baseAddress) ?? nil }
        for read in [try store.records(), try store.records(forPaths: saved.map(\.path)), try store.recordsByList(forPaths: saved.map(\.path), urls: nil)] {
            #expect(read == saved)
            let texts = read.map { storage($0.validators.lastModified) }
            #expect(texts[0] == texts[1])
            #expect(texts[1] != texts[2])
        }
    }
}
