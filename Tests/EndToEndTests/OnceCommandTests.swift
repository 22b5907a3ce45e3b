import Foundation
import Testing
import TestSupport

/// `syncagent --once`, the built binary, against nginx on 127.0.0.1 and a private D-Bus bus
/// with a recording notification server.
@Suite(.serialized)
struct OnceCommandTests {
    let server: NginxServer
    let bus: NotificationBus
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    /// The tutorial's batch: five guides from 700 KB to 29 MB.
    static let guides: [(name: String, size: Int)] = [
        ("MobileHIG.pdf", 700_000), ("NetworkingOverview.pdf", 2_000_000), ("AVFoundationPG.pdf", 5_000_000),
        ("iphone_user_guide.pdf", 12_000_000), ("FoundationReference.pdf", 29_000_000),
    ]

    init() throws {
        server = try NginxServer(locations: "location /slow/ { limit_rate 1m; rewrite ^/slow/(.*)$ /$1 break; }")
        bus = try NotificationBus()
        folder = try TemporaryDirectory(prefix: "once")
        let environment = SyncAgentProcess.homeEnvironment(bus.clientEnvironment, in: folder)
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var stateDirectory: String { folder.appending("state") }
    var destination: String { folder.appending("Guides") }

    func writeManifest(_ files: [(title: String, url: String)], extra: String = "") throws {
        var text = "destination: \(destination)\n\(extra)files:\n"
        for file in files { text += "  - title: \(file.title)\n    url: \(file.url)\n" }
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    func once() throws -> SyncAgentProcess.Run {
        try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory])
    }

    func serveGuides() throws -> [String: Data] {
        var served: [String: Data] = [:]
        for guide in Self.guides {
            let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: guide.size)
            try server.serve("guides/\(guide.name)", data)
            served[guide.name] = data
        }
        try writeManifest(Self.guides.map { ($0.name.replacingOccurrences(of: ".pdf", with: ""), server.url("guides/\($0.name)")) })
        return served
    }

    @Test func mirrorsTheBatchAndNotifiesOnce() throws {
        let served = try serveGuides()
        let run = try once()
        #expect(run.status == 0, "\(run.standardError)")
        for (name, data) in served {
            #expect(FileManager.default.contents(atPath: destination + "/" + name) == data, "\(name)")
        }
        let notifications = try bus.recordedNotifications()
        #expect(notifications.count == 1)
        let notification = try #require(notifications.first)
        #expect(notification.summary == "All files have been downloaded!")
        #expect(notification.body == "5 files, 48.7 MB, in \(destination)")
        #expect(notification.category == "transfer.complete")
        #expect(notification.urgency == 1)
        #expect(notification.appName == "syncagent")
    }

    @Test func aSecondRunRewritesNothingAndStaysSilent() throws {
        _ = try serveGuides()
        #expect(try once().status == 0)
        let before = try Self.guides.map { try FileManager.default.attributesOfItem(atPath: destination + "/" + $0.name) }
        let run = try once()
        #expect(run.status == 0)
        let after = try Self.guides.map { try FileManager.default.attributesOfItem(atPath: destination + "/" + $0.name) }
        #expect(before.map { $0[.systemFileNumber] as? Int } == after.map { $0[.systemFileNumber] as? Int })
        #expect(before.map { $0[.modificationDate] as? Date } == after.map { $0[.modificationDate] as? Date })
        #expect(try bus.recordedNotifications().count == 1)
        for guide in Self.guides {
            #expect(server.requests(for: "/guides/\(guide.name)", count: 2).map(\.status) == [200, 304])
        }
        #expect(run.standardOutput.contains("unchanged"))
    }

    @Test func failuresAreNamedInANormalUrgencyNotificationAndExitOne() throws {
        try server.serve("a.pdf", Data(repeating: 1, count: 1000))
        try writeManifest([("Good", server.url("a.pdf")), ("Missing Guide", server.url("missing.pdf"))])
        let run = try once()
        #expect(run.status == 1)
        let notification = try #require(try bus.recordedNotifications().first)
        #expect(notification.summary == "1 of 2 files could not be downloaded")
        #expect(notification.body == "Missing Guide: the server answered 404 Not Found")
        #expect(notification.category == "transfer.error")
        #expect(notification.urgency == 1)
        #expect(run.standardOutput.contains("Missing Guide"))
    }

    @Test func withoutASessionBusItWarnsAndStillSucceeds() throws {
        try server.serve("a.pdf", Data(repeating: 1, count: 1000))
        try writeManifest([("Guide", server.url("a.pdf"))])
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path)
        environment["HOME"] = folder.appending("home")
        let lonely = try SyncAgentProcess(environment: environment, folder: folder)
        let run = try lonely.run(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0)
        #expect(run.standardError.contains("could not show the desktop notification"))
        // One warning, in syncagent's words: not also GLib's raw "libnotify-WARNING **" line.
        #expect(!run.standardError.contains("WARNING **"), "\(run.standardError)")
        #expect(run.duration < .seconds(5))
        #expect(FileManager.default.fileExists(atPath: destination + "/a.pdf"))
    }

    @Test func aBadManifestExitsTwoWithLineAndColumnAndWritesNothing() throws {
        try "files:\n  - title: Guide\n    url: ftp://example.org/a.pdf\n".write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let run = try once()
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(manifestPath):3:10:"))
        #expect(!FileManager.default.fileExists(atPath: stateDirectory))
        #expect(try bus.recordedNotifications().isEmpty)
    }

    @Test func notifyFalseTurnsTheNotificationOff() throws {
        try server.serve("a.pdf", Data(repeating: 1, count: 1000))
        try writeManifest([("Guide", server.url("a.pdf"))], extra: "notify: false\n")
        #expect(try once().status == 0)
        #expect(try bus.recordedNotifications().isEmpty)
    }

    @Test func aKilledRunIsResumedWithARangeRequest() throws {
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: 6_000_000)
        try server.serve("file.pdf", data)
        try writeManifest([("Big", server.url("slow/file.pdf"))])

        let process = try syncagent.start(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory])
        let part = destination + "/.file.pdf.part"
        let deadline = ContinuousClock.now + .seconds(20)
        while ((try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0) < 1_500_000, ContinuousClock.now < deadline {
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
        #expect(kept >= 1_500_000)

        let run = try once()
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.contents(atPath: destination + "/file.pdf") == data)
        #expect(!FileManager.default.fileExists(atPath: part))
        let resumed = try #require(server.requests(for: "/slow/file.pdf", count: 2).last)
        #expect(resumed.status == 206)
        #expect(resumed.range.hasPrefix("bytes="))
        #expect(!resumed.ifRange.isEmpty)
    }

    @Test func checkListsEachFileAndFeedWithItsURLAndWhereItGoes() throws {
        let digest = String(repeating: "ab", count: 32)
        try """
            destination: \(destination)
            files:
              - title: Networking Overview
                url: https://example.org/docs/NetworkingOverview.pdf
                sha256: \(digest)
              - url: https://example.org/download.php?id=7
              - url: https://example.org/é/Guide%20Two.pdf
                path: sub/two.pdf
            feeds:
              - title: Talks
                url: https://example.org/talks.xml
                folder: talks
            """.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let run = try syncagent.run(["check", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            \(manifestPath): 3 files into \(destination)
              Networking Overview
                  https://example.org/docs/NetworkingOverview.pdf
                → NetworkingOverview.pdf  (SHA-256 checked)
              download.php
                  https://example.org/download.php?id=7
                → download.php  (or the name the server gives it, the first time: Content-Disposition)
              two.pdf
                  https://example.org/é/Guide%20Two.pdf
                → sub/two.pdf
              Talks (feed)
                  https://example.org/talks.xml
                → talks/

            """)
    }

    @Test func checkListsWhatWouldBeFetched() throws {
        try writeManifest([("Networking Overview", "https://example.org/docs/NetworkingOverview.pdf")])
        let run = try syncagent.run(["check", "--manifest", manifestPath])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("Networking Overview"))
        #expect(run.standardOutput.contains("NetworkingOverview.pdf"))
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test func statusShowsEachFilesLastResult() throws {
        try server.serve("a.pdf", Data(repeating: 1, count: 1000))
        try writeManifest([("Good", server.url("a.pdf")), ("Missing", server.url("missing.pdf"))])
        _ = try once()
        let run = try syncagent.run(["status", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(run.status == 0)
        #expect(run.standardOutput == """
            The agent is not running; this is the saved state.
            Good     up to date        downloaded just now, 1.0 KB
            Missing  failed            the server answered 404 Not Found (just now)

            """)
    }

    @Test func theFirstRunCreatesTheManifestFromTheDefault() throws {
        let run = try syncagent.run(["check"])
        #expect(run.status == 0, "\(run.standardError)")
        let created = folder.appending("home/.config/syncagent/manifest.yaml")
        #expect(FileManager.default.fileExists(atPath: created))
        #expect(run.standardError.contains("created \(created)"))
        #expect(run.standardOutput.contains("iOS Programming Guide"))
    }
}
