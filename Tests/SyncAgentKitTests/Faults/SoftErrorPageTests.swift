import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A "soft 404": an HTML page sent with 200 where a document belongs is not the document.
@Suite(.serialized)
struct SoftErrorPageTests {
    let server: FaultServer
    let folder: TemporaryDirectory
    static let page = "<!DOCTYPE html>\n<html><head><title>Page not found</title></head><body>Moved</body></html>\n"

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "soft404")
    }

    @Test(arguments: ["text/html; charset=utf-8", "application/xhtml+xml", "application/pdf", "application/octet-stream", "text/plain"])
    func anHTMLPageForAPDFIsNotPutInPlaceAndTheOldVersionIsKept(contentType: String) throws {
        let path = "/guide-\(abs(contentType.hashValue)).pdf"
        try server.serve(path, Data(), responses: [.page(Self.page, contentType: contentType)])
        let destination = folder.appending("guide.pdf")
        try Data("%PDF-1.4 old version".utf8).write(to: URL(fileURLWithPath: destination))
        let run = FaultRun([TransferRequest(id: 0, url: server.url(path), destination: destination)])

        #expect(run.failure() == TransferFailure(.webPageInsteadOfFile, "the server sent a web page instead of the file"))
        #expect(run.retriedFailures.isEmpty)
        #expect(contents(destination) == Data("%PDF-1.4 old version".utf8))
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
    }

    @Test func anHTMLPageIsFineWhereAPageIsWanted() throws {
        try server.serve("/index.html", Data(Self.page.utf8), contentType: "text/html")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/index.html"), destination: folder.appending("index.html"))])
        #expect(run.outcome() == .downloaded(bytes: Int64(Self.page.utf8.count)))
    }

    @Test func aPDFThatMentionsHTMLIsStillAPDF() throws {
        let pdf = Data("%PDF-1.7\n<html> is just text in here\n".utf8) + randomData(10_000)
        try server.serve("/real.pdf", pdf)
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/real.pdf"), destination: folder.appending("real.pdf"))])
        #expect(run.outcome() == .downloaded(bytes: Int64(pdf.count)))
    }
}

/// ``Download/startsLikeHTML(_:)``: the sniff behind a mislabelled soft 404.
struct HTMLSniffTests {
    func sniff(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes(Download.startsLikeHTML)
    }

    @Test(arguments: ["<!DOCTYPE html>", "<!doctype HTML PUBLIC", "<html>", "<HTML lang=en>", "\n\t  <html>", "\u{FEFF}<!DOCTYPE html>"])
    func pages(text: String) {
        #expect(sniff(Array(text.utf8)))
    }

    @Test(arguments: ["%PDF-1.7 <html>", "<?xml version=\"1.0\"?><svg>", "<!DOCTYPE svg>", "", "<htm", "PK\u{3}\u{4}<html>"])
    func notPages(text: String) {
        #expect(!sniff(Array(text.utf8)))
    }
}
