import Foundation
import Testing
@testable import SyncAgentKit

/// A broken feed is an error that names the feed and the cause, never an empty feed.
struct BrokenFeedTests {
    @Test(arguments: [
        ("captive-portal.html", FeedError.Code.webPage),
        ("truncated.xml", .truncated),
        ("not-a-feed.xml", .notAFeed),
        ("json-feed.json", .notXML),
    ])
    func corpusFilesThatAreNotFeeds(name: String, code: FeedError.Code) throws {
        let error = try #require(FeedCorpus.error(parsing: FeedCorpus.bytes(name)))
        #expect(error.code == code)
        #expect(error.message.hasPrefix("the feed \"Test\" at \"https://example.com/feed.xml\" "))
    }

    @Test(arguments: ["", "   \n\t ", "\u{FEFF}"])
    func anEmptyBodyIsAnError(body: String) throws {
        let error = try #require(FeedCorpus.error(parsing: Array(body.utf8)))
        #expect(error.code == .empty)
        #expect(error.message == "the feed \"Test\" at \"https://example.com/feed.xml\" is empty: the server sent no feed")
    }

    @Test(arguments: [
        "<html><head><title>Login</title></head><body><p>Please log in</body></html>",
        "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>",
        "\n\n<!doctype html><meta charset=utf-8><p>hi",
    ])
    func webPagesAreNamedAsSuch(body: String) throws {
        #expect(FeedCorpus.error(parsing: Array(body.utf8))?.code == .webPage)
    }

    @Test(arguments: [
        "<rss version=\"2.0\"><channel><title>x</title>",
        "<rss version=\"2.0\"><channel><title>x</title></channel>",
        "<rss version=\"2.0\"><channel><title>x</tit",
        "<?xml version=\"1.0\"?>",
        "<rss version=\"2.0\"><channel><title><![CDATA[abc",
    ])
    func aCutBodyIsTruncated(body: String) throws {
        let error = try #require(FeedCorpus.error(parsing: Array(body.utf8)))
        #expect(error.code == .truncated, "\(error)")
    }

    @Test func mismatchedTagsAreNotXML() throws {
        let error = try #require(FeedCorpus.error(parsing: Array("<rss>\n<channel><title>x</channel></rss>".utf8)))
        #expect(error.code == .notXML)
        #expect(error.message == "the feed \"Test\" at \"https://example.com/feed.xml\" is not valid XML: mismatched tag at line 2, column 20")
    }

    @Test func anOPMLFileIsNotAFeed() throws {
        let error = try #require(FeedCorpus.error(parsing: FeedCorpus.bytes("not-a-feed.xml")))
        #expect(error.message == "the feed \"Test\" at \"https://example.com/feed.xml\" is XML but not a feed: its root element is \"opml\", not rss, feed (Atom) or rdf:RDF")
    }

    /// Found by `fuzz/run feeds`: a broken body that turns out to be a web page further on was
    /// called broken XML when the error came in an early chunk and a web page when whole. The
    /// error is now explained from the first KiB, however the body is cut.
    @Test func theSameBrokenBodyGivesTheSameErrorHoweverItIsCut() throws {
        let body = Array("<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"httpead><title>Sign in</title><meta x=\"y\"></head><body><form></form></body></html>".utf8)
        let whole = try #require(FeedCorpus.error(parsing: body))
        #expect(whole.code == .webPage)
        for cut in 0...body.count {
            let parser = FeedParser(title: "Test", url: "https://example.com/feed.xml")
            do {
                try parser.parse(Array(body[..<cut]))
                try parser.parse(Array(body[cut...]))
                _ = try parser.finish()
                Issue.record("parsed when cut at \(cut)")
            } catch {
                #expect(error == whole, "cut at \(cut)")
            }
        }
    }

    @Test func aBrokenBodyFailsOnceItsFirstKiBHasArrived() throws {
        let parser = FeedParser(title: "Test", url: nil)
        try parser.parse(Array("<rss><channel></rss>".utf8))
        #expect(throws: FeedError.self) { try parser.parse(Array(String(repeating: " ", count: 1100).utf8)) }
    }

    /// Found by `fuzz/run feeds`: "%\0v\0" (UTF-16 without a byte order mark) was "cut off"
    /// whole and "not valid XML" when its first byte came alone, because expat guesses the
    /// encoding from what it has. The first four bytes now always reach expat together.
    @Test func theEncodingIsGuessedFromFourBytesHoweverTheBodyIsCut() throws {
        let body: [UInt8] = [0x25, 0x00, 0x76, 0x00]
        let whole = try #require(FeedCorpus.error(parsing: body))
        for cut in 0...body.count {
            let parser = FeedParser(title: "Test", url: "https://example.com/feed.xml")
            let error = try #require(throws: FeedError.self) {
                try parser.parse(Array(body[..<cut]))
                try parser.parse(Array(body[cut...]))
                _ = try parser.finish()
            }
            #expect(error == whole, "cut at \(cut)")
        }
        let utf16 = Array("\u{FEFF}<rss><channel><title>UTF-16</title></channel></rss>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let parser = FeedParser(title: "Test", url: nil)
        for byte in utf16 { try parser.parse([byte]) }
        #expect(try parser.finish().title == "UTF-16")
    }

    /// Limits of expat's namespace mode and of XML, kept on purpose (docs/architecture.md): a
    /// prefix nobody declared that is not a conventional one, and an HTML entity without a DTD,
    /// make a body that is not XML.
    @Test(arguments: [
        "<rss><channel><item><foo:episode>3</foo:episode></item></channel></rss>",
        "<rss><channel><title>A&nbsp;B</title></channel></rss>",
        "<rdf:RDF><channel/></rdf:RDF>",
    ])
    func unknownUndeclaredPrefixesAndHTMLEntitiesAreNotXML(body: String) throws {
        #expect(FeedCorpus.error(parsing: Array(body.utf8))?.code == .notXML)
    }

    /// Feeds that use `itunes:` or `media:` without declaring them are read as if they had.
    @Test func conventionalPrefixesWorkUndeclared() throws {
        let body = Array(#"<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title><item><title>One</title><itunes:episode>3</itunes:episode><media:content url="https://e.com/1.mp3" type="audio/mpeg"/><dc:date>2026-11-01</dc:date></item></channel></rss>"#.utf8)
        let whole = try FeedParser.parse(body, title: "T", url: nil)
        #expect(whole.items.first?.episode == 3)
        #expect(whole.items.first?.enclosure?.url == "https://e.com/1.mp3")
        #expect(whole.items.first?.published?.description == "2026-11-01T00:00:00Z")
        for cut in 0...body.count {
            let parser = FeedParser(title: "T", url: nil)
            try parser.parse(Array(body[..<cut]))
            try parser.parse(Array(body[cut...]))
            #expect(try parser.finish() == whole, "cut at \(cut)")
        }
    }
}
