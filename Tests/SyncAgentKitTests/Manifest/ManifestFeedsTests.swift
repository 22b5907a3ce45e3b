import Foundation
import Testing
@testable import SyncAgentKit

/// The `feeds:` list: every key, its defaults, and each mistake's message.
struct ManifestFeedsTests {
    private func load(_ yaml: String) throws -> Manifest {
        try ManifestLoader(context: ManifestErrorTests.context).load(Array(yaml.utf8))
    }

    private func errors(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch let error as InvalidManifest {
            return error.errors.map { String($0.description.dropFirst("manifest.yaml:".count)) }
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func fillsInDefaultsAndNeedsNoFiles() throws {
        let manifest = try load("""
            schedule: { every: 6h }
            feeds:
              - title: "ATP: Accidental Tech Podcast"
                url: https://atp.fm/rss
            """)
        #expect(manifest.files.isEmpty)
        #expect(manifest.feeds == [Manifest.Feed(
            title: "ATP: Accidental Tech Podcast", url: "https://atp.fm/rss", folder: "ATP - Accidental Tech Podcast",
            schedule: Manifest.Schedule(every: .seconds(21_600))
        )])
        #expect(manifest.feeds[0].first == .newest(3) && manifest.feeds[0].keep == .all && manifest.feeds[0].types == [.audio, .video, .other])
        #expect(manifest.folderPath(of: manifest.feeds[0]) == "/home/ada/Downloads/syncagent/ATP - Accidental Tech Podcast")
    }

    @Test func readsEveryKey() throws {
        let manifest = try load("""
            files:
              - url: https://example.org/a.pdf
            feeds:
              - title: ATP
                url: itpc://atp.fm/rss
                folder: podcasts//ATP/
                name: "{episode} {title}"
                first: all
                keep: 10
                max_age: 90d
                types: [audio, video]
                every: 1h
                window: "01:00-06:00"
                discretionary: true
                max_size: 2GB
              - title: Reply All
                url: feed:https://example.org/replyall.xml
                first: 0
                types: image
            """)
        let atp = manifest.feeds[0]
        #expect(atp.url == "http://atp.fm/rss" && atp.folder == "podcasts/ATP")
        #expect(atp.name == (try FileNameTemplate.parse("{episode} {title}")))
        #expect(atp.first == .all && atp.keep == .newest(10) && atp.maxAge == .seconds(90 * 86_400))
        #expect(atp.types == [.audio, .video] && atp.maxSize == 2_000_000_000)
        #expect(atp.schedule == Manifest.Schedule(every: .seconds(3600), window: Manifest.DailyWindow(start: 60, end: 360), discretionary: true))
        let replyAll = manifest.feeds[1]
        #expect(replyAll.url == "https://example.org/replyall.xml" && replyAll.folder == "Reply All")
        #expect(replyAll.first == .newest(0) && replyAll.types == [.image])
    }

    @Test(arguments: [
        ("feed://atp.fm/rss", "http://atp.fm/rss"), ("FEED://atp.fm/rss", "http://atp.fm/rss"),
        ("itpc://atp.fm/rss", "http://atp.fm/rss"), ("feed:http://a.org/x", "http://a.org/x"),
        ("feed:https://a.org/x", "https://a.org/x"), ("https://a.org/x", "https://a.org/x"),
    ])
    func readsPodcastSchemesAsHTTP(written: String, read: String) {
        #expect(ManifestValidator.subscriptionURL(written) == read)
    }

    @Test func reportsEachMistakeWhereItIs() {
        #expect(errors("""
            feeds:
              - title: ATP
                url: ftp://atp.fm/rss
                frist: 3
                keep: 0
                first: some
                max_age: soon
                types: [audo]
                name: "{nmae}"
              - url: https://example.org/rss
              - title: A/B
                url: https://example.org/rss
              - notAMapping
            """) == [
                "3:10: \"ftp://atp.fm/rss\" is not an http or https URL; a feed's URL may also start with feed:// or itpc://",
                "4:5: unknown key \"frist\" in a feed entry; did you mean \"first\"?",
                "5:11: `keep` must be between 1 and 100000, found 0",
                "6:12: expected `all` or a number of episodes for `first`, found \"some\"",
                "7:14: expected a duration above zero like \"90d\" for `max_age` (units ms, s, m, h, d), found \"soon\"",
                "8:13: unknown enclosure type \"audo\" in `types`; did you mean \"audio\"?",
                "9:11: the name template \"{nmae}\" has the unknown placeholder {nmae}; known are {date} {episode} {feed} {season} {title} {url_name}",
                "10:5: missing key `title` in this feed entry; expected the name the feed is shown and commanded by, such as \"title: ATP\"",
                "11:12: a feed's title may not contain \"/\", found \"A/B\"; the command line names an episode as \"FEED/EPISODE\"",
                "13:5: expected a feed entry (a mapping with `title` and `url`) in `feeds`, found \"notAMapping\"",
            ])
    }

    @Test func aFeedsFolderClaimsItsWholeTree() {
        #expect(errors("""
            files:
              - title: Guide
                url: https://example.org/guide.pdf
                path: ATP/guide.pdf
              - url: https://example.org/notes.pdf
                path: notes
            feeds:
              - title: ATP
                url: https://atp.fm/rss
              - title: Notes
                url: https://example.org/rss
                folder: notes
              - title: Guide
                url: https://example.org/rss2
                folder: shows
              - title: Shows
                url: https://example.org/rss3
                folder: shows/bonus
              - title: Shows 2
                url: https://example.org/rss4
                folder: shows
            """) == [
                "8:12: the folder \"ATP\" holds the file of \"Guide\" on line 2, and a feed's folder is for its episodes alone; give the feed another `folder`",
                "12:13: the folder \"notes\" is the file of \"notes\" on line 5; give the feed another `folder`",
                "13:12: the title \"Guide\" is already used by the entry on line 2; titles must be unique, as they name files on the command line",
                "18:13: the folder \"shows/bonus\" lies in \"shows\", the folder of the feed \"Guide\" on line 13; a feed's folder is for its episodes alone",
                "21:13: the folder \"shows\" is already the folder of the feed \"Guide\" on line 13; give one of them another `folder`",
            ])
    }

    @Test func aFolderThatHoldsAnotherFeedsFolderIsRefused() {
        #expect(errors("""
            feeds:
              - title: Bonus
                url: https://example.org/rss
                folder: shows/bonus
              - title: Shows
                url: https://example.org/rss2
                folder: shows
            """) == [
                "7:13: the folder \"shows\" holds the folder of the feed \"Bonus\" on line 2; a feed's folder is for its episodes alone",
            ])
    }

    @Test func aManifestNeedsFilesOrFeeds() {
        #expect(errors("notify: true\n") == [
            "1:1: missing key `files` at the top level; expected a list of files to keep (or `feeds`, a list of feeds to follow)",
        ])
        #expect(errors("feds: []\n") == [
            "1:1: unknown key \"feds\" at the top level; did you mean \"feeds\"?",
            "1:1: missing key `files` at the top level; expected a list of files to keep (or `feeds`, a list of feeds to follow)",
        ])
    }

    @Test func theDefaultManifestsFeedExampleLoads() throws {
        // The commented example teaches the format: uncomment it, and it must be right.
        let bytes = try ManifestFile.contents(of: ManifestLoaderTests.repositoryRoot + "/config/manifest.yaml")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "# feeds:"))
        let example = lines[start...].prefix { $0.hasPrefix("#") }.map { $0.dropFirst(2) }
        let manifest = try load(example.joined(separator: "\n"))
        #expect(manifest.feeds.count == 1)
        #expect(manifest.feeds[0].title == "ATP" && manifest.feeds[0].keep == .newest(20) && manifest.feeds[0].types == [.audio])
    }
}
