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

    /// An https URL's redirects may not go down to plain http, however its scheme is spelt.
    @Test func theSchemeIsHTTPSInAnyCase() {
        #expect(Download.isHTTPS("https://example.org/a.pdf"))
        #expect(Download.isHTTPS("HTTPS://example.org/a.pdf"))
        #expect(Download.isHTTPS("hTtPs://example.org/a.pdf"))
        #expect(!Download.isHTTPS("http://example.org/a.pdf"))
        #expect(!Download.isHTTPS("httpsx://example.org/a.pdf"))
        #expect(!Download.isHTTPS("https"))
        // 0x1A would become ":" if every byte were lowercased by setting its 0x20 bit.
        #expect(!Download.isHTTPS("https\u{1A}//example.org/a.pdf"))
    }

    /// Only a plain-http connection is checked for bytes beyond a response (see
    /// ``Download/closeConnectionIfOverrun()``).
    @Test func aPlainHTTPSchemeIsKnownInAnyCase() {
        #expect(Download.hasScheme("http://example.org/a.pdf", "http:"))
        #expect(Download.hasScheme("HTTP://example.org/a.pdf", "http:"))
        #expect(!Download.hasScheme("https://example.org/a.pdf", "http:"))
        #expect(!Download.hasScheme("htt", "http:"))
    }
}
