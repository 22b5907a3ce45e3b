import Testing
@testable import SyncAgentKit

/// An episode is known by its guid, then its query-less enclosure URL, then title and day.
struct EpisodeIdentityTests {
    private func item(_ title: String, guid: String? = nil, url: String? = nil, date: String? = nil) -> FeedItem {
        FeedItem(title: title, guid: guid, published: date.flatMap(FeedDateParser.parse), enclosures: url.map { [FeedEnclosure(url: $0)] } ?? [])
    }

    @Test func keysStrongestFirst() {
        let keys = EpisodeKey.keys(of: item("Ep  One", guid: "g1", url: "https://CDN.e.com/a/ep1.mp3?token=x#t", date: "Mon, 02 Nov 2026 23:00:00 -0500"))
        #expect(keys == [EpisodeKey(.guid, "g1"), EpisodeKey(.url, "cdn.e.com/a/ep1.mp3"), EpisodeKey(.titleDay, "2026-11-03 ep one")])
        #expect(keys.map(\.description) == ["guid:g1", "url:cdn.e.com/a/ep1.mp3", "title-day:2026-11-03 ep one"])
        #expect(EpisodeKey.keys(of: item("No date")).isEmpty)
    }

    @Test func aRepeatedGuidKeepsTheNewestWithOneWarning() throws {
        let feed = try FeedCorpus.parse("duplicate-guids.xml")
        let (episodes, warnings) = EpisodeList.episodes(of: feed, feedTitle: "Dupes")
        #expect(episodes.map(\.title) == ["New copy", "Other"])
        #expect(warnings == [FeedWarning(.duplicateGuid, "the feed \"Dupes\" gives more than one item the guid \"same\", \"other\"; only the newest of each is kept")])
    }

    @Test func itemsWithoutEnclosureAreNoEpisodes() throws {
        let feed = try FeedCorpus.parse("rss2-itunes.xml")
        #expect(EpisodeList.episodes(of: feed, feedTitle: "ATP").episodes.map(\.guid) == ["atp-612", "atp-611"])
    }

    @Test func rotatingTokensAndEditedGuidsMatchTheKnownEpisodes() throws {
        let first = EpisodeList.episodes(of: try FeedCorpus.parse("rotating-token-1.xml"), feedTitle: "T").episodes
        var known: [Int: Set<EpisodeKey>] = [:]
        for (index, episode) in first.enumerated() { known[index] = Set(EpisodeKey.keys(of: episode)) }
        let second = EpisodeList.episodes(of: try FeedCorpus.parse("rotating-token-2.xml"), feedTitle: "T").episodes
        let matches = EpisodeMatcher.match(second, known: known)
        #expect(matches.map(\.known) == [nil, 1, 0])
        #expect(matches.map(\.foundBy) == [nil, .url, .url])
        #expect(matches[1].newKeys == [EpisodeKey(.guid, "g2-edited")], "the new guid is recorded as an alias")
        #expect(matches[2].newKeys.isEmpty)
        #expect(matches[0].newKeys.first == EpisodeKey(.guid, "g3"))
    }

    @Test func titleAndDayIsTheLastResort() {
        let known: [String: Set<EpisodeKey>] = ["old": Set(EpisodeKey.keys(of: item("Ep 1", url: "https://a.com/1.mp3", date: "2026-11-02T10:00:00Z")))]
        let moved = item("Ep  1", url: "https://b.com/other.mp3", date: "2026-11-02T18:00:00Z")
        #expect(EpisodeMatcher.match([moved], known: known).map(\.foundBy) == [.titleDay])
        let nextDay = item("Ep 1", url: "https://b.com/other.mp3", date: "2026-11-03T10:00:00Z")
        #expect(EpisodeMatcher.match([nextDay], known: known).map(\.known) == [nil])
    }

    @Test func aKnownEpisodeIsMatchedOnceAndStrongKeysWin() {
        let known: [String: Set<EpisodeKey>] = [
            "a": [EpisodeKey(.guid, "a"), EpisodeKey(.url, "e.com/shared.mp3")],
            "b": [EpisodeKey(.guid, "b")],
        ]
        // The first item would take "a" by URL, but the second has a's guid.
        let items = [item("x", guid: "new", url: "https://e.com/shared.mp3"), item("y", guid: "a", url: "https://e.com/y.mp3")]
        let matches = EpisodeMatcher.match(items, known: known)
        #expect(matches.map(\.known) == [nil, "a"])
        #expect(matches.map(\.foundBy) == [nil, .guid])
    }
}
