import Foundation
import Testing
@testable import SyncAgentKit

/// Hostile bodies are refused quickly and in bounded memory: entity bombs, external entities,
/// huge attribute lists, deep nesting, oversize bodies and fields.
struct HostileFeedTests {
    /// A hang guard, not a speed test: each case takes milliseconds; a regression to
    /// quadratic or exponential work would take minutes.
    static let hangGuard = Duration.seconds(10)

    @Test(arguments: ["billion-laughs.xml", "external-entity.xml", "attribute-defaults.xml"])
    func dtdDeclarationsAreRefused(name: String) throws {
        let started = ContinuousClock.now
        let error = try #require(FeedCorpus.error(parsing: FeedCorpus.bytes(name)))
        #expect(error.code == .declarations)
        #expect(error.message.contains("in a DTD"))
        #expect(!error.message.contains("root:"), "nothing of /etc/passwd may appear")
        #expect(ContinuousClock.now - started < Self.hangGuard)
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let error = try #require(FeedCorpus.error(parsing: FeedCorpus.bytes("external-entity.xml")))
        #expect(error.message == "the feed \"Test\" at \"https://example.com/feed.xml\" declares the entity \"xxe\" in a DTD, which feeds never need and entity bombs and file-reading attacks use")
    }

    @Test func anExternalParameterEntityIsNeverRead() throws {
        // Parameter entities are not parsed at all: the reference is skipped, never loaded,
        // or the declaration refused.
        let bytes = try FeedCorpus.bytes("external-parameter-entity.xml")
        do {
            let feed = try FeedParser.parse(bytes, title: "Test", url: nil)
            #expect(feed.title == "x")
        } catch {
            #expect(error.code == .declarations)
        }
    }

    @Test func twoHundredThousandAttributesAreRefusedQuickly() throws {
        var body = Array("<rss version=\"2.0\"><channel><title>x</title><item".utf8)
        body.reserveCapacity(3_000_000)
        for index in 0..<200_000 { body += Array(" a\(index)=\"v\"".utf8) }
        body += Array("/></channel></rss>".utf8)
        let started = ContinuousClock.now
        let error = try #require(FeedCorpus.error(parsing: body))
        #expect(error.code == .tooManyAttributes)
        #expect(ContinuousClock.now - started < Self.hangGuard)
    }

    @Test func tenThousandLevelsOfNestingAreRefused() throws {
        let body = Array(("<rss version=\"2.0\"><channel>" + String(repeating: "<x>", count: 10_000) + String(repeating: "</x>", count: 10_000) + "</channel></rss>").utf8)
        let started = ContinuousClock.now
        let error = try #require(FeedCorpus.error(parsing: body))
        #expect(error.code == .tooDeep)
        #expect(error.message.hasSuffix("nests elements deeper than 64 levels, more than any feed needs"))
        #expect(ContinuousClock.now - started < Self.hangGuard)
    }

    @Test func aBodyOverTheSizeCapIsRefusedAsItArrives() throws {
        var limits = FeedLimits.standard
        limits.maximumBytes = 1000
        let parser = FeedParser(title: "Test", url: nil, limits: limits)
        try parser.parse(Array(("<rss><channel><title>" + String(repeating: "a", count: 900)).utf8))
        #expect(throws: FeedError(.tooLarge, "the feed \"Test\" is larger than 1000 bytes, the most a feed may be")) {
            try parser.parse(Array(String(repeating: "a", count: 200).utf8))
        }
    }

    @Test func theDefaultSizeCapIs32MiB() {
        #expect(FeedLimits.standard.maximumBytes == 32 * 1024 * 1024)
    }

    @Test func tooManyItemsAreRefused() throws {
        var limits = FeedLimits.standard
        limits.maximumItems = 10
        let body = Array(("<rss><channel>" + String(repeating: "<item><title>t</title></item>", count: 11) + "</channel></rss>").utf8)
        let error = try #require(FeedCorpus.error(parsing: body, limits: limits))
        #expect(error.code == .tooManyItems)
        let ten = Array(("<rss><channel>" + String(repeating: "<item><title>t</title></item>", count: 10) + "</channel></rss>").utf8)
        #expect(FeedCorpus.error(parsing: ten, limits: limits) == nil)
    }

    @Test func aKeptFieldOverTheCapIsRefusedButShowNotesAreNotKept() throws {
        let huge = String(repeating: "x", count: 70_000)
        let title = Array("<rss><channel><item><title>\(huge)</title></item></channel></rss>".utf8)
        #expect(FeedCorpus.error(parsing: title)?.code == .fieldTooLong)
        let notes = Array("<rss><channel><item><title>t</title><description>\(huge)</description></item></channel></rss>".utf8)
        #expect(FeedCorpus.error(parsing: notes) == nil)
    }

    @Test func aLongBaseCannotMakeURLsLongerThanTheCap() throws {
        let base = "https://e.com/" + String(repeating: "d/", count: 4_087)
        let body = Array("<rss xml:base=\"\(base)\"><channel><item><title>t</title><enclosure url=\"abcdefgh.mp3\"/></item></channel></rss>".utf8)
        let feed = try FeedParser.parse(body, title: "T", url: nil)
        #expect(feed.items[0].enclosure == nil)
        #expect(feed.warnings.first?.message == "the feed \"T\": the item \"t\" has an enclosure URL longer than 8192 bytes; it is ignored")
    }
}
