import Testing
@testable import SyncAgentKit

/// The parts of ``Download`` that are decisions on values.
struct DownloadTests {
    @Test func anHTMLPageForADocumentIsASoft404() {
        #expect(Download.webPageInsteadOfFile(mediaType: "text/html", destination: "/d/Guide.PDF") != nil)
        #expect(Download.webPageInsteadOfFile(mediaType: "application/xhtml+xml", destination: "/d/episode.mp3") != nil)
    }

    @Test func anHTMLPageIsFineWhereHTMLIsExpected() {
        #expect(Download.webPageInsteadOfFile(mediaType: "text/html", destination: "/d/index.html") == nil)
        #expect(Download.webPageInsteadOfFile(mediaType: "text/html", destination: "/d/README") == nil)
        #expect(Download.webPageInsteadOfFile(mediaType: "application/pdf", destination: "/d/Guide.pdf") == nil)
        #expect(Download.webPageInsteadOfFile(mediaType: nil, destination: "/d/Guide.pdf") == nil)
    }
}
