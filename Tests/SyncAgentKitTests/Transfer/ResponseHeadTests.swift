import Testing
@testable import SyncAgentKit

struct ResponseHeadTests {
    func head(_ lines: [String]) -> ResponseHead {
        var head = ResponseHead()
        for line in lines {
            Array((line + "\r\n").utf8).withUnsafeBytes { _ = head.consume(line: $0) }
        }
        return head
    }

    @Test func keepsOnlyTheFinalResponseAfterARedirect() {
        let parsed = head([
            "HTTP/1.1 301 Moved Permanently", "Location: /b", "ETag: \"old\"", "",
            "HTTP/1.1 200 OK", "ETag: \"abc\"", "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT",
            "Content-Type: application/pdf; charset=binary", "Content-Length: 1234", "",
        ])
        #expect(parsed.status == 200)
        #expect(parsed.reason == "OK")
        #expect(parsed.validators == Validators(etag: "\"abc\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(parsed.mediaType == "application/pdf")
        #expect(parsed.contentLength == 1234)
    }

    @Test func servesByteRangesWhenItSaysSoOrAnswersARange() {
        #expect(head(["HTTP/1.1 200 OK", "Accept-Ranges: bytes"]).servesByteRanges)
        #expect(head(["HTTP/1.1 200 OK", "Accept-Ranges: Bytes"]).servesByteRanges)
        #expect(head(["HTTP/1.1 200 OK", "Accept-Ranges: pages, bytes"]).servesByteRanges)
        #expect(head(["HTTP/1.1 206 Partial Content"]).servesByteRanges)
        #expect(!head(["HTTP/1.1 200 OK", "Accept-Ranges: none"]).servesByteRanges)
        #expect(!head(["HTTP/1.1 200 OK", "Accept-Ranges: bytesize"]).servesByteRanges)
        #expect(!head(["HTTP/1.1 200 OK"]).servesByteRanges)
    }

    @Test func aTokenListIsReadItemByItemCaseBlind() {
        #expect(ResponseHead.list("pages, BYTES ", contains: "bytes"))
        #expect(ResponseHead.list(" ,\tbytes", contains: "bytes"))
        #expect(!ResponseHead.list("bytesize", contains: "bytes"))
        #expect(!ResponseHead.list("byte, s", contains: "bytes"))
        #expect(!ResponseHead.list("", contains: "bytes"))
    }

    @Test func aRepeatedFieldKeepsItsLastValueAndOthersAreSkipped() {
        let parsed = head(["HTTP/1.1 200 OK", "ETag: \"a\"", "X-ETag: \"x\"", "ETags: \"y\"", "etag: \"b\"", "Server: nginx"])
        #expect(parsed.etag == "\"b\"")
        #expect(parsed[.location] == nil)
        #expect(ResponseHead.Field.allCases.allSatisfy { $0 == .etag || parsed[$0] == nil })
    }

    @Test func fieldNamesAreCaseBlindAndValuesTrimmed() {
        let parsed = head(["HTTP/2 404", "content-TYPE:   Text/HTML  "])
        #expect(parsed.status == 404)
        #expect(parsed.reason == "")
        #expect(parsed.mediaType == "text/html")
    }

    @Test(arguments: [
        ("HTTP/1.1 304 Not Modified", 304), ("HTTP/2 200", 200), ("HTTP/1.1 +304 x", 304), ("HTTP/1.1 0200 OK", 200),
        ("HTTP/1.1 30x", 0), ("HTTP/1.1 99999999999999999999 x", 0), ("HTTP/1.1", 0), ("HTTP/1.1 1000 x", 1000),
    ])
    func statusCodesAreReadAsNumbers(line: String, status: Int) {
        #expect(head([line]).status == status)
    }

    @Test func onlyAStatusLineStartsAResponse() {
        #expect(head(["HTTP/1.0 200 OK"]).isHTTP1)
        #expect(!head(["HTTP/2 200"]).isHTTP1)
        #expect(head(["HTTP/1.1 200 OK", "HTTP", "HTTP-X: 1", "HTTP/"]).status == 0)
        #expect(head(["HTTP/1.1 200 OK", "http/1.1 404 x"]).status == 200)
    }

    @Test func retryAfterInSecondsOrAsADate() {
        #expect(head(["HTTP/1.1 503 x", "Retry-After: 120"]).retryAfter(now: 0) == .seconds(120))
        let date = head(["HTTP/1.1 503 x", "Retry-After: Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(date.retryAfter(now: 784_111_777 - 30) == .seconds(30))
        #expect(date.retryAfter(now: 784_111_777 + 30) == .zero)
        #expect(head(["HTTP/1.1 503 x", "Retry-After: soon"]).retryAfter(now: 0) == nil)
    }

    @Test(arguments: [
        ("bytes 100-199/1000", ContentRange(first: 100, last: 199, completeLength: 1000)),
        ("bytes 0-0/*", ContentRange(first: 0, last: 0, completeLength: nil)),
        ("bytes 200-100/1000", nil), ("bytes 100-1000/1000", nil), ("items 1-2/3", nil), ("bytes 1-2", nil),
    ] as [(String, ContentRange?)])
    func contentRange(value: String, expected: ContentRange?) {
        #expect(ContentRange(headerValue: value) == expected)
    }

    @Test func identityIsNoContentEncoding() {
        #expect(head(["HTTP/1.1 200 OK", "Content-Encoding:  GZip "]).contentEncoding == "gzip")
        #expect(head(["HTTP/1.1 200 OK", "Content-Encoding: identity"]).contentEncoding == nil)
        #expect(head(["HTTP/1.1 200 OK"]).contentEncoding == nil)
    }

    @Test func aRangeIsTheWholeFileOnlyFromItsFirstByteToItsLast() {
        #expect(ContentRange(headerValue: "bytes 0-999/1000")?.wholeLength == 1000)
        #expect(ContentRange(headerValue: "bytes 0-998/1000")?.wholeLength == nil)
        #expect(ContentRange(headerValue: "bytes 1-999/1000")?.wholeLength == nil)
        #expect(ContentRange(headerValue: "bytes 0-999/*")?.wholeLength == nil)
    }
}

/// Issue 11, item 3: a body whose length the response contradicts is never a file.
struct ResponseHeadFramingTests {
    func head(_ lines: [String]) -> ResponseHead {
        ResponseHeadTests().head(["HTTP/1.1 200 OK"] + lines)
    }

    @Test func twoDifferentLengthsAreAProblem() {
        let parsed = head(["Content-Length: 100", "content-length: 2000"])
        #expect(parsed.framingProblem == "contradictory lengths for one response (Content-Length: 100 and 2000)")
        #expect(parsed.contentLength == nil)
    }

    @Test func aListOfDifferentLengthsIsAProblem() {
        #expect(head(["Content-Length: 100, 101"]).framingProblem == "contradictory lengths for one response (Content-Length: 100 and 101)")
    }

    @Test func repeatedEqualLengthsAreOneLength() {
        let parsed = head(["Content-Length: 100", "Content-Length: 100, 100"])
        #expect(parsed.framingProblem == nil)
        #expect(parsed.contentLength == 100)
    }

    @Test(arguments: ["-1", "+5", "1e3", "0x10", ""])
    func aLengthThatIsNotDigitsIsAProblem(value: String) {
        let parsed = head(["Content-Length: \(value)"])
        #expect(parsed.framingProblem == "an invalid length (Content-Length: \(value))")
        #expect(parsed.contentLength == nil)
    }

    @Test func aLengthBesideTransferEncodingIsAProblem() {
        #expect(head(["Transfer-Encoding: chunked", "Content-Length: 10"]).framingProblem
            == "both Content-Length and Transfer-Encoding (chunked), so the length of the body is unclear")
        #expect(head(["Transfer-Encoding: chunked"]).framingProblem == nil)
    }

    @Test func aNewStatusLineStartsOver() {
        let parsed = head(["Content-Length: 1", "Content-Length: 2", "", "HTTP/1.1 200 OK", "Content-Length: 3"])
        #expect(parsed.framingProblem == nil)
        #expect(parsed.contentLength == 3)
    }
}
