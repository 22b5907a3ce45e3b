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
}
