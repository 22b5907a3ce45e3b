import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Feeds through the one batch driver against a real nginx: phase 1 fetches the feed,
/// phase 2 downloads its new episodes as ordinary transfers. Time is a variable the test moves.
@Suite(.serialized) final class SyncDriverFeedsTests {
    let server: NginxServer
    let folder: TemporaryDirectory
    let store: StateStore
    nonisolated(unsafe) var now = Date(timeIntervalSince1970: 1_795_132_800)

    init() throws {
        server = try NginxServer(locations: """
            location /slow/ { limit_rate 200k; }
            location = /old.xml { return 301 /feed.xml; }
            """)
        folder = try TemporaryDirectory(prefix: "sync-feeds")
        store = try StateStore(directory: folder.appending("state"))
        for number in 1...6 { try server.serve("media/ep\(number).mp3", Data(repeating: UInt8(number), count: 3_000 + number)) }
    }

    deinit {
        server.stop()
        folder.remove()
    }

    /// An episode of the served feed: number, days before ``now``, guid, and the query its URL
    /// carries.
    struct Item {
        var number: Int
        var guid: String?
        var token = "a"
    }

    /// Serves an RSS feed listing `items`, newest first (item n is n days after day 0).
    func publish(_ items: [Item]) throws {
        let entries = items.map { item in
            let day = String(format: "%02d", item.number)
            return """
                <item><title>Episode \(item.number)</title><guid>\(item.guid ?? "guid-\(item.number)")</guid>
                <pubDate>\(day) Nov 2026 10:00:00 GMT</pubDate>
                <enclosure url="\(server.url("media/ep\(item.number).mp3"))?token=\(item.token)" type="audio/mpeg" length="\(3_000 + item.number)"/></item>
                """
        }.joined(separator: "\n")
        try server.serve("feed.xml", Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>ATP</title>\n\(entries)\n</channel></rss>".utf8))
    }

    /// Serves a feed of one episode, "Big": 1.5 MB of 0x42 at 200 kB/s.
    func serveSlowEpisodeFeed() throws {
        try server.serve("slow/big.mp3", Data(repeating: 0x42, count: 1_500_000))
        let feed = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>ATP</title><item><title>Big</title><guid>big</guid>"
            + "<pubDate>01 Nov 2026 10:00:00 GMT</pubDate><enclosure url=\"\(server.url("slow/big.mp3"))\" type=\"audio/mpeg\"/></item></channel></rss>"
        try server.serve("feed.xml", Data(feed.utf8))
    }

    func manifest(first: Manifest.EpisodeCount = .newest(2), keep: Manifest.EpisodeCount = .all, feeds: Bool = true) throws -> Manifest {
        let feed = Manifest.Feed(title: "ATP", url: server.url("feed.xml"), folder: "ATP", name: try FileNameTemplate.parse("{title}"),
                                 first: first, keep: keep)
        return Manifest(destination: folder.appending("files"), files: [], feeds: feeds ? [feed] : [])
    }

    /// One `--once` batch; the titles of what it downloaded.
    @discardableResult
    func runOnce(_ manifest: Manifest) throws -> [String] {
        let driver = SyncDriver(store: store, mode: .everyFileNow, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now })
        driver.use(manifest)
        guard case .finished(let report) = try driver.runOneBatch(stoppingOn: nil) else {
            Issue.record("the batch did not finish")
            return []
        }
        return report?.results.filter { if case .downloaded = $0.outcome { true } else { false } }.map(\.title) ?? []
    }

    var episodeFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appending("files/ATP"))) ?? []).sorted()
    }

    func states() throws -> [String: EpisodeState] {
        Dictionary(uniqueKeysWithValues: try store.episodes(ofFeed: folder.appending("files/ATP")).map { ($0.title, $0.state) })
    }

    @Test func aNewSubscriptionGetsTheNewestFirstThenExactlyEachNewEpisode() throws {
        try publish([Item(number: 3), Item(number: 2), Item(number: 1)])
        #expect(try runOnce(try manifest()) == ["ATP/Episode 3", "ATP/Episode 2"])
        #expect(episodeFiles == ["Episode 2.mp3", "Episode 3.mp3"])
        #expect(FileManager.default.contents(atPath: folder.appending("files/ATP/Episode 3.mp3")) == Data(repeating: 3, count: 3_003))
        #expect(try states() == ["Episode 3": .done, "Episode 2": .done, "Episode 1": .skipped])

        try publish([Item(number: 4), Item(number: 3), Item(number: 2), Item(number: 1)])
        #expect(try runOnce(try manifest()) == ["ATP/Episode 4"])
        #expect(episodeFiles == ["Episode 2.mp3", "Episode 3.mp3", "Episode 4.mp3"])
    }

    @Test func editedGuidsAndRotatedTokensDownloadNothingTwice() throws {
        try publish([Item(number: 2), Item(number: 1)])
        #expect(try runOnce(try manifest(first: .all)).count == 2)
        try publish([Item(number: 2, guid: "edited-2", token: "b"), Item(number: 1, token: "c")])
        #expect(try runOnce(try manifest(first: .all)).isEmpty)
        #expect(try store.episodes(ofFeed: folder.appending("files/ATP")).count == 2)
    }

    @Test func anUnchangedFeedIsAskedForConditionallyAndChangesNothing() throws {
        try publish([Item(number: 1)])
        try runOnce(try manifest())
        let before = try store.episodes(ofFeed: folder.appending("files/ATP"))
        #expect(try runOnce(try manifest()).isEmpty)
        let fetches = server.requests(for: "/feed.xml", count: 2)
        #expect(fetches.count == 2)
        #expect(fetches.last?.status == 304 && fetches.last?.ifNoneMatch.isEmpty == false)
        #expect(try store.episodes(ofFeed: folder.appending("files/ATP")) == before)
    }

    @Test func aBrokenFeedFailsItsCheckAndChangesNothing() throws {
        try publish([Item(number: 2), Item(number: 1)])
        try runOnce(try manifest(first: .newest(1)))
        let before = try store.episodes(ofFeed: folder.appending("files/ATP"))
        try server.serve("feed.xml", Data("<!DOCTYPE html><html><body>Please log in to the Wi-Fi</body></html>".utf8))
        let driver = SyncDriver(store: store, mode: .everyFileNow, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now })
        driver.use(try manifest(first: .newest(1)))
        guard case .finished(let report?) = try driver.runOneBatch(stoppingOn: nil) else {
            Issue.record("the broken feed was not reported")
            return
        }
        #expect(report.results.map(\.title) == ["ATP"])
        guard case .failed(let failure) = report.results[0].outcome else {
            Issue.record("the broken feed did not fail")
            return
        }
        #expect(failure.message.contains("\"ATP\"") && failure.message.contains("web page"))
        #expect(try store.episodes(ofFeed: folder.appending("files/ATP")) == before)
        #expect(try store.feedRecord(forFolder: folder.appending("files/ATP"))?.lastError == failure.message)
        #expect(episodeFiles == ["Episode 2.mp3"])
    }

    @Test func keepDeletesOnlyOldDownloadsAndTheirTombstonesNeverComeBack() throws {
        try publish([Item(number: 2), Item(number: 1)])
        try runOnce(try manifest(first: .all, keep: .newest(2)))
        #expect(episodeFiles == ["Episode 1.mp3", "Episode 2.mp3"])
        try FileManager.default.createDirectory(atPath: folder.appending("files/ATP"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.appending("files/ATP/my notes.txt")))
        try publish([Item(number: 3), Item(number: 2), Item(number: 1)])
        #expect(try runOnce(try manifest(first: .all, keep: .newest(2))) == ["ATP/Episode 3"])
        // Episode 1 is deleted once episode 3 is in; the user's own file stays.
        #expect(episodeFiles == ["Episode 2.mp3", "Episode 3.mp3", "my notes.txt"])
        #expect(try states()["Episode 1"] == .deleted)
        // A feed removed from the manifest and added back downloads nothing again.
        try runOnce(try manifest(feeds: false))
        #expect(try runOnce(try manifest(first: .all, keep: .newest(2))).isEmpty)
        #expect(try states()["Episode 1"] == .deleted)
    }

    @Test func aFeedThatIsGoneIsNoLongerChecked() throws {
        let gone = try NginxServer(locations: "location = /feed.xml { return 410; }")
        defer { gone.stop() }
        let feed = Manifest.Feed(title: "ATP", url: gone.url("feed.xml"), folder: "ATP")
        let manifest = Manifest(destination: folder.appending("files"), files: [], feeds: [feed])
        try runOnce(manifest)
        let record = try store.feedRecord(forFolder: folder.appending("files/ATP"))
        #expect(record?.goneSince == now)
        #expect(record?.lastError == "the server answered 410 Gone; it is no longer checked (edit or remove it in the manifest)")
        try runOnce(manifest)
        // Waits for a second request, which must not come.
        #expect(gone.requests(for: "/feed.xml", count: 2).count == 1)
    }

    @Test func anEpisodeInterruptedMidwayIsResumedWhereItStopped() throws {
        try serveSlowEpisodeFeed()
        let requests = PipeRequests()
        let interrupted = SyncDriver(store: store, mode: .everyFileNow, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now }) { event, file in
            if case .progress = event, file.title == "ATP/Big" { requests.send(.stop) }
        }
        interrupted.use(try manifest())
        guard case .interrupted(let resuming, _) = try interrupted.runOneBatch(stoppingOn: requests) else {
            Issue.record("the batch was not interrupted")
            return
        }
        #expect(resuming == ["ATP/Big"])
        #expect(try states() == ["Big": .wanted])
        #expect(try runOnce(try manifest()) == ["ATP/Big"])
        #expect(server.requests(for: "/slow/big.mp3", count: 2).last?.range.hasPrefix("bytes=") == true)
        #expect(FileManager.default.contents(atPath: folder.appending("files/ATP/Big.mp3")) == Data(repeating: 0x42, count: 1_500_000))
        #expect(try states() == ["Big": .done])
    }

    @Test func aPermanentRedirectAndANewFeedURLAreRememberedNeverFollowedInTheManifest() throws {
        try publish([Item(number: 1)])
        var moved = try manifest()
        moved.feeds[0].url = server.url("old.xml")
        #expect(try runOnce(moved).count == 1)
        let record = try store.feedRecord(forFolder: folder.appending("files/ATP"))
        #expect(record?.movedTo == server.url("feed.xml") && record?.moveKind == .redirect)

        let announced = "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel>"
            + "<title>ATP</title><itunes:new-feed-url>https://new.example.org/rss</itunes:new-feed-url></channel></rss>"
        try server.serve("feed.xml", Data(announced.utf8))
        try runOnce(try manifest())
        let again = try store.feedRecord(forFolder: folder.appending("files/ATP"))
        #expect(again?.movedTo == "https://new.example.org/rss" && again?.moveKind == .newFeedURL)
        // An episode vanishing from the feed deletes nothing.
        #expect(episodeFiles == ["Episode 1.mp3"])
    }

    @Test func statusShowsTheFeedAndEachEpisodeButTombstones() throws {
        try publish([Item(number: 3), Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .newest(2), keep: .newest(1))
        try runOnce(manifest)
        let rows = try OfflineControl.status(of: manifest, store: store)
        #expect(rows.map(\.title) == ["ATP", "ATP/Episode 3", "ATP/Episode 1"])
        #expect(rows.map(\.state) == [.upToDate, .upToDate, .skipped])
        #expect(rows.allSatisfy { $0.feed == "ATP" })
        #expect(rows[1].path == folder.appending("files/ATP/Episode 3.mp3") && rows[1].bytesExpected == 3_003)

        var moved = manifest
        moved.feeds[0].url = server.url("old.xml")
        try runOnce(moved)
        let feedRow = try #require(try OfflineControl.status(of: moved, store: store).first)
        #expect(feedRow.lastMessage == "the server redirects it permanently to \(server.url("feed.xml")); edit its `url` in the manifest")
    }
}
