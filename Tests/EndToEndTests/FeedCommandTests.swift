import Foundation
import Testing
import TestSupport

/// Feeds as a new user meets them, with the built binary: `check --feeds --json` on a corpus
/// feed, and `--once` subscribing to a feed served by nginx on 127.0.0.1.
@Suite(.serialized)
struct FeedCommandTests {
    let server: NginxServer
    let bus: NotificationBus
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        + "/SyncAgentKitTests/Feeds/Corpus"

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 200k; }")
        bus = try NotificationBus()
        folder = try TemporaryDirectory(prefix: "feeds-e2e")
        let environment = SyncAgentProcess.homeEnvironment(bus.clientEnvironment, in: folder)
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var stateDirectory: String { folder.appending("state") }

    func subscribe(first: String = "2") throws {
        try """
            destination: \(folder.appending("Podcasts"))
            feeds:
              - title: ATP
                url: \(server.url("atp.xml"))
                first: \(first)
            """.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    @Test func checkFeedsJSONListsEveryParsedEpisodeAndWritesNothing() throws {
        try server.serve("atp.xml", try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/rss2-itunes.xml")))
        try subscribe()
        let run = try syncagent.run(["check", "--feeds", "--json", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0, "\(run.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let feeds = try #require(json["feeds"] as? [[String: Any]])
        #expect(feeds.count == 1)
        #expect(feeds[0]["title"] as? String == "ATP" && feeds[0]["error"] is NSNull)
        let episodes = try #require(feeds[0]["episodes"] as? [[String: Any]])
        let first = try #require(episodes.first)
        #expect(first["title"] as? String == "612: Sharp & Pointy")
        #expect(first["guid"] as? String == "atp-612")
        #expect(first["published"] as? String == "2026-11-21T03:15:00Z")
        #expect(first["url"] as? String == "https://traffic.example.com/atp/612.mp3?token=abc")
        #expect(first["type"] as? String == "audio/mpeg" && first["length"] as? Int == 98_765_432)
        #expect(first["fetch"] as? Bool == true && first["file"] as? String == "2026-11-20 612 - Sharp & Pointy.mp3")
        // First sight with `first: 2`: the two newest are fetched.
        #expect(episodes.filter { $0["fetch"] as? Bool == true }.count == 2)
        #expect(Set(episodes.flatMap { $0.keys }) == ["title", "guid", "published", "url", "type", "length", "fetch", "file"])
        #expect(!FileManager.default.fileExists(atPath: stateDirectory))
    }

    @Test func checkFeedsSaysWhyAFeedCannotBeRead() throws {
        try server.serve("atp.xml", try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/captive-portal.html")))
        try subscribe()
        let run = try syncagent.run(["check", "--feeds", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("ATP: \(server.url("atp.xml"))\n  could not be read: the feed \"ATP\""), "\(run.standardOutput)")
    }

    @Test func onceSubscribesGetsTheNewestAndNotifiesNamingTheFeed() throws {
        var items = ""
        for number in (1...3).reversed() {
            try server.serve("media/\(number).mp3", Data(repeating: UInt8(number), count: 1_000_000))
            items += "<item><title>Episode \(number)</title><guid>ep-\(number)</guid><pubDate>0\(number) Nov 2026 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"media/\(number).mp3\" type=\"audio/mpeg\"/></item>"
        }
        try server.serve("atp.xml", Data("<rss version=\"2.0\"><channel><title>ATP</title>\(items)</channel></rss>".utf8))
        try subscribe()
        let run = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0, "\(run.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appending("Podcasts/ATP")).sorted()
        #expect(files == ["2026-11-02 Episode 2.mp3", "2026-11-03 Episode 3.mp3"])
        let notification = try #require(try bus.recordedNotifications().first)
        #expect(notification.summary == "All files have been downloaded!")
        #expect(notification.body == "2 new episodes (ATP) · 2.0 MB")
        // Nothing new: silent, and nothing downloaded again.
        #expect(try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory]).status == 0)
        #expect(try bus.recordedNotifications().count == 1)
        #expect(server.requests(for: "/media/3.mp3").count == 1)
    }

    @Test func killedMidEpisodeTheNextOnceResumesWithARangeAndTheFileIsWhole() throws {
        let episode = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        try server.serve("slow/big.mp3", episode)
        try server.serve("atp.xml", Data("""
            <rss version="2.0"><channel><title>ATP</title><item><title>Big</title><guid>big</guid>
            <pubDate>01 Nov 2026 10:00:00 GMT</pubDate><enclosure url="slow/big.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8))
        try subscribe(first: "1")
        let podcasts = folder.appending("Podcasts/ATP")
        let partial = podcasts + "/.2026-11-01 Big.mp3.part"
        let once = try syncagent.start(["--once", "--no-notify", "--manifest", manifestPath, "--state-dir", stateDirectory], output: "killed")
        defer { if once.isRunning { kill(once.processIdentifier, SIGKILL) } }
        #expect(eventually(within: .seconds(15)) { fileSize(partial) >= 600_000 })
        kill(once.processIdentifier, SIGKILL)
        once.waitUntilExit()
        let kept = fileSize(partial)
        #expect(kept >= 600_000 && kept < episode.count)

        let run = try syncagent.run(["--once", "--no-notify", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0, "\(run.standardError)")
        let fetches = server.requests(for: "/slow/big.mp3", count: 2)
        #expect(fetches.count == 2)
        #expect(fetches.last?.range.hasPrefix("bytes=") == true && fetches.last?.range != "bytes=0-", "\(fetches)")
        #expect(FileManager.default.contents(atPath: podcasts + "/2026-11-01 Big.mp3") == episode)
        #expect(!FileManager.default.fileExists(atPath: partial))
    }
}
