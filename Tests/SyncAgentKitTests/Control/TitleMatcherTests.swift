import Testing
@testable import SyncAgentKit

struct TitleMatcherTests {
    let titles = ["iOS Programming Guide", "Human Interface Guidelines", "AV Foundation", "AV Kit", "iPhone User Guide"]

    @Test func noTitlesMeansEveryFile() throws {
        #expect(try TitleMatcher.match([], in: titles) == [0, 1, 2, 3, 4])
    }

    @Test func exactTitlesAndUnambiguousPrefixesCaseBlind() throws {
        #expect(try TitleMatcher.match(["av foundation"], in: titles) == [2])
        #expect(try TitleMatcher.match(["iph", "HUMAN"], in: titles) == [1, 4])
        #expect(try TitleMatcher.match(["AV Kit", "av kit"], in: titles) == [3])
    }

    @Test func anAmbiguousPrefixListsTheCandidates() {
        #expect(throws: TitleMatchError(message: "\"AV\" could be any of \"AV Foundation\", \"AV Kit\"; type more of the title")) {
            try TitleMatcher.match(["AV"], in: titles)
        }
    }

    @Test func anUnknownTitleSuggestsCloseOnes() {
        #expect(throws: TitleMatchError(message: "no file is titled \"iPhone Usr Guide\"; did you mean \"iPhone User Guide\"?")) {
            try TitleMatcher.match(["iPhone Usr Guide"], in: titles)
        }
        #expect(throws: TitleMatchError(message: "no file is titled \"Guide\"; did you mean \"iOS Programming Guide\" or \"Human Interface Guidelines\" or \"iPhone User Guide\"?")) {
            try TitleMatcher.match(["Guide"], in: titles)
        }
        #expect(throws: TitleMatchError(message: "no file is titled \"zzz\"; `syncagent status` lists the titles")) {
            try TitleMatcher.match(["zzz"], in: titles)
        }
    }
}

/// Feeds and their episodes among the titles a command names.
struct FeedTitleMatcherTests {
    let manifest = Manifest(
        destination: "/home/u/Downloads", files: [Manifest.Entry(title: "ATP notes", url: "https://example.org/n.pdf", path: "n.pdf")],
        feeds: [Manifest.Feed(title: "ATP", url: "https://atp.fm/rss", folder: "ATP"), Manifest.Feed(title: "Reply All", url: "https://example.org/ra", folder: "RA")]
    )

    func episode(_ id: Int64, _ title: String, _ state: EpisodeState = .done) -> StoredEpisode {
        StoredEpisode(id: id, keys: [], fileName: "\(id).mp3", state: state, title: title, url: "https://cdn.example.org/\(id).mp3")
    }

    var episodes: [String: [StoredEpisode]] {
        ["/home/u/Downloads/ATP": [episode(1, "611: Old"), episode(2, "612: New", .skipped)], "/home/u/Downloads/RA": [episode(3, "1: Start")]]
    }

    @Test func noTitlesMeansEveryFileAndFeedButNoSingleEpisode() throws {
        let targets = try TitleMatcher.targets([], in: manifest, episodes: episodes)
        #expect(targets.titles == ["ATP notes", "ATP", "Reply All"])
    }

    @Test func aFeedByTitleOrPrefixAndAnEpisodeAsFeedSlashEpisode() throws {
        let feed = try TitleMatcher.targets(["atp"], in: manifest, episodes: episodes)
        #expect(feed.feeds.map(\.title) == ["ATP"] && feed.files.isEmpty && feed.episodes.isEmpty)
        // A prefix without the slash never names episodes: "rep" is the feed alone.
        #expect(try TitleMatcher.targets(["rep"], in: manifest, episodes: episodes).titles == ["Reply All"])
        let one = try TitleMatcher.targets(["ATP/612"], in: manifest, episodes: episodes)
        #expect(one.episodes.map(\.id) == [2] && one.episodes.first?.state == .skipped)
        #expect(one.episodes.first?.entry.path == "ATP/2.mp3" && one.episodes.first?.folder == "/home/u/Downloads/ATP")
    }

    @Test func anUnknownOrAmbiguousEpisodeSaysWhatItCouldBe() {
        #expect(throws: TitleMatchError(message: "\"ATP/6\" could be any of \"ATP/611: Old\", \"ATP/612: New\"; type more of the title")) {
            try TitleMatcher.targets(["ATP/6"], in: manifest, episodes: episodes)
        }
        #expect(throws: TitleMatchError(message: "no file, feed or episode is titled \"ATP/612: Nwe\"; did you mean \"ATP/612: New\" or \"ATP/611: Old\"?")) {
            try TitleMatcher.targets(["ATP/612: Nwe"], in: manifest, episodes: episodes)
        }
    }
}
