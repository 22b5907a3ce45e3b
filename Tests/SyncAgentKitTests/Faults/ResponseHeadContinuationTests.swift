import Testing
@testable import SyncAgentKit

/// ``ResponseHead/continues(partialOf:version:)``: when a 206 may be appended to a partial.
struct ResponseHeadContinuationTests {
    func head(_ lines: [String]) -> ResponseHead {
        var head = ResponseHead()
        for line in ["HTTP/1.1 206 Partial Content"] + lines {
            Array((line + "\r\n").utf8).withUnsafeBytes { _ = head.consume(line: $0) }
        }
        return head
    }

    let strong = Validators(etag: "\"v1\"", lastModified: "Sat, 01 Jan 2022 00:00:00 GMT")

    @Test func theRestOfTheSameVersionContinues() {
        #expect(head(["Content-Range: bytes 100-999/1000", "Content-Length: 900", "ETag: \"v1\""]).continues(partialOf: 100, version: strong))
        #expect(head(["Content-Range: bytes 100-999/*"]).continues(partialOf: 100, version: strong))
        #expect(head(["Content-Range: bytes 100-999/1000"]).continues(partialOf: 100, version: nil))
    }

    @Test(arguments: [
        ["Content-Range: bytes 0-999/1000"],
        ["Content-Range: bytes 101-999/1000"],
        ["Content-Range: bytes 100-899/1000"],
        ["Content-Range: bytes 100-999/1000", "Content-Length: 800"],
        ["Content-Range: bytes 100-999/1000", "ETag: \"v2\""],
        ["Content-Length: 900"],
    ])
    func anythingElseDoesNot(lines: [String]) {
        #expect(!head(lines).continues(partialOf: 100, version: strong))
    }

    @Test func aPartialKnownByItsDateComparesDates() {
        let dated = Validators(lastModified: "Sat, 01 Jan 2022 00:00:00 GMT")
        #expect(head(["Content-Range: bytes 1-9/10", "Last-Modified: Sat, 01 Jan 2022 00:00:00 GMT"]).continues(partialOf: 1, version: dated))
        #expect(!head(["Content-Range: bytes 1-9/10", "Last-Modified: Sun, 02 Jan 2022 00:00:00 GMT"]).continues(partialOf: 1, version: dated))
        let weak = Validators(etag: "W/\"v1\"", lastModified: "Sat, 01 Jan 2022 00:00:00 GMT")
        #expect(!head(["Content-Range: bytes 1-9/10", "ETag: W/\"v1\"", "Last-Modified: Sun, 02 Jan 2022 00:00:00 GMT"]).continues(partialOf: 1, version: weak))
    }

    @Test func nothingContinuesAnEmptyPartialOrAFullResponse() {
        #expect(!head(["Content-Range: bytes 0-9/10"]).continues(partialOf: 0, version: strong))
        var full = ResponseHead()
        Array("HTTP/1.1 200 OK\r\n".utf8).withUnsafeBytes { _ = full.consume(line: $0) }
        #expect(!full.continues(partialOf: 100, version: strong))
    }

    @Test func aNegativeContentLengthIsNoLength() {
        #expect(head(["Content-Length: -5"]).contentLength == nil)
    }
}
