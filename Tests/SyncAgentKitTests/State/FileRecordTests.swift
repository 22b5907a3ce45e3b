import Foundation
import Testing
@testable import SyncAgentKit

/// A record is a value: the fields most records leave empty live in a shared box, and a change
/// to one copy never shows in another.
struct FileRecordTests {
    static let partial = Validators(etag: "\"p\"", lastModified: "Wed, 16 Nov 1994 09:00:00 GMT")
    static let failed = LastResult(kind: .failed, message: "the server answered 503", date: Date(timeIntervalSince1970: 1_763_700_000))

    @Test func aChangeToOneCopyNeverShowsInAnother() {
        var changed = FileRecord(path: "/d/a", url: "https://example.org/a", partial: Self.partial, lastResult: Self.failed,
                                 nextAttempt: Date(timeIntervalSince1970: 1_763_700_030), servedName: "Served.pdf", partialLength: 7)
        let copy = changed
        changed.partial = nil
        changed.partialLength = nil
        changed.lastResult = LastResult(kind: .unchanged, date: Date(timeIntervalSince1970: 1_763_700_100))
        #expect(copy.partial == Self.partial && copy.partialLength == 7 && copy.lastResult == Self.failed)
        #expect(copy.servedName == "Served.pdf" && changed.servedName == "Served.pdf")
        #expect(changed.lastResult?.message == nil && changed.nextAttempt == copy.nextAttempt)
        #expect(changed != copy)
    }

    @Test func recordsWithTheSameFieldsAreEqualHoweverTheyWereMade() {
        var emptied = FileRecord(path: "/d/a", url: "https://example.org/a", partial: Self.partial, lastResult: Self.failed, servedName: "S")
        emptied.partial = nil
        emptied.servedName = nil
        emptied.lastResult = nil
        #expect(emptied == FileRecord(path: "/d/a", url: "https://example.org/a"))

        var filled = FileRecord(path: "/d/a", url: "https://example.org/a")
        filled.partial = Validators()
        #expect(filled == FileRecord(path: "/d/a", url: "https://example.org/a", partial: Validators()))
        #expect(filled != FileRecord(path: "/d/a", url: "https://example.org/a"))
        // A result's date counts only with its kind: none, none to compare.
        filled.lastResult = LastResult(kind: .downloaded, message: "", date: Date(timeIntervalSince1970: 5))
        #expect(filled.lastResult == LastResult(kind: .downloaded, message: "", date: Date(timeIntervalSince1970: 5)))
        filled.lastResult = nil
        #expect(filled == FileRecord(path: "/d/a", url: "https://example.org/a", partial: Validators()))
    }

    /// A saved result's kind is read from the column's bytes: each kind from its raw value,
    /// nothing from any other text.
    @Test func aResultKindIsReadFromItsRawValuesBytesOnly() {
        func kind(_ text: String) -> LastResult.Kind? {
            Array(text.utf8).withUnsafeBytes { LastResult.Kind(utf8: $0) }
        }
        for expected in [LastResult.Kind.downloaded, .unchanged, .failed] {
            #expect(kind(expected.rawValue) == expected)
        }
        for other in ["", "download", "downloadedd", "Failed", "unchanged ", "faile\u{0}"] {
            #expect(kind(other) == nil)
        }
    }
}
