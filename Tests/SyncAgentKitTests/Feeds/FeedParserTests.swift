import Foundation
import Testing
@testable import SyncAgentKit

/// The feed formats read from the corpus: RSS 2.0 with iTunes tags, Atom, Media RSS, RSS 1.0,
/// encodings, relative URLs.
struct FeedParserTests {
    @Test func readsRSSWithITunesTags() throws {
        let feed = try FeedCorpus.parse("rss2-itunes.xml")
        #expect(feed.title == "Accidental Tech Podcast")
        #expect(feed.newFeedURL == "https://feeds.example.com/atp")
        #expect(feed.items.count == 3)
        let first = feed.items[0]
        #expect(first.title == "612: Sharp & Pointy")
        #expect(first.guid == "atp-612")
        #expect(first.published == FeedDate(secondsSince1970: 1_795_230_900, utcOffset: -18_000))
        #expect(first.published?.localDay == "2026-11-20")
        #expect(first.published?.utcDay == "2026-11-21")
        #expect(first.enclosure == FeedEnclosure(url: "https://traffic.example.com/atp/612.mp3?token=abc", mediaType: "audio/mpeg", length: 98_765_432))
        #expect(first.episode == 612 && first.season == 3 && first.duration == 6727)
        #expect(feed.items[1].title == "611: Multi-line Title")
        #expect(feed.items[1].enclosure == FeedEnclosure(url: "https://traffic.example.com/atp/611.mp3", mediaType: "audio/mpeg", length: nil))
        #expect(feed.items[1].duration == 6725)
        #expect(feed.items[2].enclosure == nil)
        #expect(feed.warnings.isEmpty)
    }

    @Test func readsAtomWithXMLBase() throws {
        let feed = try FeedCorpus.parse("atom.xml")
        #expect(feed.title == "Atom Cast")
        #expect(feed.items.map(\.title) == ["Episode Two", "Episode One"])
        #expect(feed.items.map(\.guid) == ["tag:example.org,2026:2", "tag:example.org,2026:1"])
        #expect(feed.items[0].enclosure == FeedEnclosure(url: "https://media.example.org/podcast/files/two.ogg", mediaType: "audio/ogg", length: 1_234_567))
        #expect(feed.items[0].published?.description == "2026-11-20T17:30:02Z")
        #expect(feed.items[1].enclosure?.url == "https://cdn.example.net/one.mp3")
        #expect(feed.items[1].published?.description == "2026-11-13T09:00:00Z", "updated stands in for a missing published")
    }

    @Test func readsMediaRSSGroupsDefaultFirstAndMergesTheSameURL() throws {
        let feed = try FeedCorpus.parse("media-rss.xml")
        #expect(feed.items[0].title == "Grouped")
        #expect(feed.items[0].enclosures.map(\.url) == ["https://video.example.com/2-high.mp4", "https://video.example.com/2-low.mp4"])
        #expect(feed.items[0].enclosure?.length == 9000)
        #expect(feed.items[1].enclosures == [
            FeedEnclosure(url: "https://video.example.com/1.mp4", mediaType: "video/mp4", length: 5000),
            FeedEnclosure(url: "https://video.example.com/1.webm", mediaType: "video/webm", length: nil),
        ])
    }

    @Test func readsRSS1WithDublinCoreAndLatin1() throws {
        let feed = try FeedCorpus.parse("rdf.xml")
        #expect(feed.title == "Café Radio")
        #expect(feed.items.count == 1)
        #expect(feed.items[0].title == "Première")
        #expect(feed.items[0].guid == "http://example.org/show/1")
        #expect(feed.items[0].published?.description == "2026-11-01T10:00:00Z")
        #expect(feed.items[0].enclosure == nil)
    }

    @Test func readsWindows1252() throws {
        let feed = try FeedCorpus.parse("windows-1252.xml")
        #expect(feed.title == "Smart \u{201C}quotes\u{201D} €")
        #expect(feed.items.first?.title == "Café")
    }

    @Test func readsAnOldDoctypeWithoutLoadingIt() throws {
        let feed = try FeedCorpus.parse("rss091-doctype.xml")
        #expect(feed.items.first?.enclosure?.url == "http://example.com/1.mp3")
        #expect(feed.title.hasPrefix("Old"))
    }

    @Test func resolvesRelativeURLsAndDropsOtherSchemes() throws {
        let feed = try FeedCorpus.parse("relative-urls.xml")
        #expect(feed.newFeedURL == "https://example.com/new/feed.xml")
        #expect(feed.items.map { $0.enclosure?.url } == [
            "https://example.com/shows/weekly/ep%201.mp3",
            "https://example.com/root/ep2.mp3",
            "https://cdn.example.net/ep3.mp3",
            nil,
            "https://EXAMPLE.com/ep5.MP3",
        ])
        let dropped = feed.warnings.filter { $0.code == .enclosureDropped }
        #expect(dropped.count == 4)
        #expect(dropped.contains { $0.message == "the feed \"Test\": the item \"bad schemes\" has the enclosure \"file:///etc/passwd\", which is not an http or https URL; it is ignored" })
        for item in feed.items {
            for enclosure in item.enclosures {
                #expect(enclosure.url.hasPrefix("http://") || enclosure.url.hasPrefix("https://"))
            }
        }
    }

    @Test func withoutAFeedURLRelativeEnclosuresAreDropped() throws {
        let feed = try FeedCorpus.parse("rss2-itunes.xml", url: nil)
        #expect(feed.items[0].enclosure != nil)
        let relative = try FeedParser.parse(Array(#"<rss><channel><item><title>t</title><enclosure url="a.mp3"/></item></channel></rss>"#.utf8), title: "R", url: nil)
        #expect(relative.items[0].enclosure == nil)
        #expect(relative.warnings.map(\.code) == [.enclosureDropped])
    }

    @Test func readsDatesWrittenBadly() throws {
        let feed = try FeedCorpus.parse("broken-dates.xml")
        #expect(feed.items.map { $0.published?.description } == [
            "2026-11-20T10:00:00Z", "2026-11-20T15:00:00Z", "2026-11-20T08:00:00Z",
            "2026-11-20T17:00:00Z", "2026-11-20T10:00:00Z", nil,
        ])
        #expect(feed.warnings.map(\.message) == ["the feed \"Test\": the item \"garbage\" has the date \"sometime last week\", which cannot be read; it is taken as undated"])
    }

    @Test func aSmallFeedFedAtEveryByteBoundaryParsesTheSame() throws {
        let bytes = try FeedCorpus.bytes("rss2-itunes.xml")
        let whole = try FeedParser.parse(bytes, title: "Test", url: "https://example.com/feed.xml")
        for cut in 0...bytes.count {
            let parser = FeedParser(title: "Test", url: "https://example.com/feed.xml")
            try parser.parse(Array(bytes[..<cut]))
            try parser.parse(Array(bytes[cut...]))
            #expect(try parser.finish() == whole, "cut at \(cut)")
        }
        let parser = FeedParser(title: "Test", url: "https://example.com/feed.xml")
        for byte in bytes { try parser.parse([byte]) }
        #expect(try parser.finish() == whole)
    }

    @Test func anErrorStaysAnError() throws {
        let parser = FeedParser(title: "Test", url: nil)
        #expect(throws: FeedError.self) { try parser.parse(Array("<html><body>".utf8)); try parser.parse(Array("</p>".utf8)) }
        #expect(throws: FeedError.self) { try parser.finish() }
    }

    @Test func readsWhatPodcastHostsReallyWrite() throws {
        let feed = try FeedCorpus.parse("real-world-quirks.xml")
        #expect(feed.title == "Quirks & Co.")
        #expect(feed.items.count == 2)
        let seven = feed.items[0]
        #expect(seven.title == "Ep. 7 — “Quotes” & <stuff>")
        #expect(seven.guid == "https://quirks.example/7")
        #expect(seven.enclosure == FeedEnclosure(url: "https://cdn.example/ep%207%20%C3%BC.mp3?a=1&b=2", mediaType: "audio/mpeg", length: 4242))
        #expect(seven.duration == 425 && seven.episode == 7 && seven.season == nil)
        let six = feed.items[1]
        #expect(six.title == "Only an iTunes title")
        #expect(six.enclosure == FeedEnclosure(url: "https://cdn.example/6.m4a", mediaType: "audio/x-m4a", length: nil))
        #expect(six.duration == 1234 && six.season == nil && six.published == nil)
        #expect(feed.warnings.isEmpty)
    }

    @Test func readsTheAtom03Draft() throws {
        let feed = try FeedCorpus.parse("atom03.xml")
        #expect(feed.title == "Old Atom")
        #expect(feed.items.first?.published?.description == "2005-06-01T12:00:00Z")
        #expect(feed.items.first?.enclosure?.url == "http://old.example/1.mp3")
        #expect(feed.items.first?.guid == "tag:old,2005:1")
    }
}
