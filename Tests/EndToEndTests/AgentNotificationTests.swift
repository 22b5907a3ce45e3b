import Foundation
import Testing
import TestSupport

/// The agent's one living notification per topic, and its actions, against a private session
/// bus whose recording server answers `GetCapabilities` as a real server does, sends
/// `ActivationToken`/`ActionInvoked` when told, and plays `org.freedesktop.FileManager1`.
@Suite(.serialized)
struct AgentNotificationTests {
    let server: NginxServer
    let systemBus: PrivateSystemBus
    let networkManager: FakeSystemService
    let upower: FakeSystemService
    let folder: TemporaryDirectory

    init() throws {
        server = try NginxServer()
        systemBus = try PrivateSystemBus()
        networkManager = try FakeSystemService.networkManager(on: systemBus)
        upower = try FakeSystemService.upower(onBattery: false, on: systemBus)
        folder = try TemporaryDirectory(prefix: "agent-notify")
    }

    var manifestPath: String { folder.appending("config/manifest.yaml") }
    var destination: String { folder.appending("Guides") }

    func syncagent(on bus: NotificationBus) throws -> SyncAgentProcess {
        var environment = bus.clientEnvironment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        environment["HOME"] = folder.path
        environment["XDG_CONFIG_HOME"] = folder.appending(".config")
        environment["XDG_DATA_HOME"] = folder.appending(".local/share")
        return try SyncAgentProcess(environment: environment, folder: folder)
    }

    /// Makes a recording application the user's default for `mimeTypes` (and folders): it
    /// appends "FILE TOKEN" to the returned file each time the desktop opens something with it.
    func installRecordingApplication(for mimeTypes: [String]) throws -> String {
        let record = folder.appending("opened.txt")
        let script = folder.appending("recorder")
        try "#!/bin/sh\necho \"$1 $XDG_ACTIVATION_TOKEN\" >>\(record)\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let applications = folder.appending(".local/share/applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Recorder\nExec=\(script) %u\nMimeType=\(mimeTypes.joined(separator: ";"));\n"
            .write(toFile: applications + "/recorder.desktop", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.appending(".config"), withIntermediateDirectories: true)
        try ("[Default Applications]\n" + mimeTypes.map { "\($0)=recorder.desktop\n" }.joined())
            .write(toFile: folder.appending(".config/mimeapps.list"), atomically: true, encoding: .utf8)
        return record
    }

    func writeManifest(_ body: String) throws {
        try FileManager.default.createDirectory(atPath: folder.appending("config"), withIntermediateDirectories: true)
        try "destination: \(destination)\n\(body)".write(toFile: manifestPath + ".tmp", atomically: false, encoding: .utf8)
        rename(manifestPath + ".tmp", manifestPath)
    }

    func entry(_ title: String, _ path: String) -> String {
        "  - title: \"\(title)\"\n    url: \(server.url(path))\n"
    }

    func startAgent(on bus: NotificationBus) throws -> Process {
        try syncagent(on: bus).start(["--manifest", manifestPath, "--state-dir", folder.appending("state")], output: "agent")
    }

    func stop(_ agent: Process) {
        guard agent.isRunning else { return }
        kill(agent.processIdentifier, SIGKILL)
        agent.waitUntilExit()
    }

    func notifications(_ bus: NotificationBus, count: Int, within limit: Duration = .seconds(10)) throws -> [RecordedNotification] {
        _ = eventually(within: limit) { (try? bus.recordedNotifications().count) ?? 0 >= count }
        let recorded = try bus.recordedNotifications()
        try #require(recorded.count == count, "expected \(count) notifications, got \(recorded.map(\.summary)); agent log: \(agentLog)")
        return recorded
    }

    var agentLog: String { (try? String(contentsOfFile: folder.appending("agent.err"), encoding: .utf8)) ?? "" }

    @Test func retryNowStartsTheFailedFileAndTheNextBatchReplacesTheFailureNotice() throws {
        let bus = try NotificationBus(capabilities: .minimal)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + entry("Annual Report", "report.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }

        let failure = try #require(try notifications(bus, count: 1).first)
        #expect(failure.summary == "1 of 2 files could not be downloaded")
        #expect(failure.body == "Annual Report: the server answered 404 Not Found")
        #expect(failure.urgency == 1, "a failed download is normal urgency; critical is for what needs the user now")
        #expect(failure.category == "transfer.error")
        #expect(failure.actions == ["retry", "Retry now", "details", "Show details"])
        #expect(failure.hints["sound-name"] == nil, "this server lists no \"sound\"")
        #expect(failure.replacesID == 0)
        let details = try String(contentsOfFile: folder.appending("state/failures.txt"), encoding: .utf8)
        #expect(details.contains("Annual Report: the server answered 404 Not Found\n    \(destination)/report.pdf\n"))

        // A 404 is not retried on its own; "Retry now" must start it.
        try server.serve("report.pdf", Data(repeating: 2, count: 2_000))
        try bus.invokeAction(id: 1, key: "retry")

        let recorded = try notifications(bus, count: 2)
        #expect(FileManager.default.fileExists(atPath: destination + "/report.pdf"))
        #expect(recorded[1].summary == "All files have been downloaded!")
        #expect(recorded[1].body == "1 file, 2.0 KB, in ~/Guides")
        #expect(recorded[1].replacesID == 1, "the batch notification replaces the last one instead of stacking")
        #expect(recorded[1].actions == ["default", "Open Folder", "open-folder", "Open Folder", "open", "Open"])
        #expect(agentLog.contains("Retry now: starting Annual Report again"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("state/failures.txt")), "nothing fails any more")
    }

    @Test func aClickShowsTheNewFilesInTheFileManagerWithTheActivationToken() throws {
        let bus = try NotificationBus(capabilities: .gnomeShell, fileManager: true)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try server.serve("b.pdf", Data(repeating: 2, count: 1_000))
        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + entry("Guide B", "b.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }

        let success = try #require(try notifications(bus, count: 1).first)
        #expect(success.hints["sound-name"] == .string("complete-download"), "GNOME Shell plays sounds")
        #expect(success.actions == ["default", "Open Folder", "open-folder", "Open Folder"])

        try bus.invokeAction(id: 1, key: "default", token: "token-42")

        #expect(eventually(within: .seconds(5)) { (try? bus.recordedCalls().isEmpty) == false })
        let uris = ["a.pdf", "b.pdf"].map { URL(fileURLWithPath: destination + "/" + $0).absoluteString }
        #expect(try bus.recordedCalls() == [.init(method: "ShowItems", arguments: [.strings(uris), .string("token-42")])])
    }

    @Test func showDetailsOpensTheListOfFailuresWithTheDefaultApplicationAndTheToken() throws {
        let opened = try installRecordingApplication(for: ["text/plain"])
        let bus = try NotificationBus(capabilities: .xfce4Notifyd)
        try writeManifest("files:\n" + entry("Annual Report", "report.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }
        _ = try notifications(bus, count: 1)

        try bus.invokeAction(id: 1, key: "details", token: "token-7")

        // GIO hands a local file to the application as its path.
        let details = folder.appending("state/failures.txt")
        #expect(eventually(within: .seconds(5)) { (try? String(contentsOfFile: opened, encoding: .utf8))?.hasSuffix("\n") == true })
        let launched = try String(contentsOfFile: opened, encoding: .utf8)
        #expect(launched == "\(details) token-7\n", "agent log: \(agentLog)")
    }

    @Test func withoutAFileManagerOnTheBusOpenFolderOpensTheFolderWithItsDefaultApplication() throws {
        let opened = try installRecordingApplication(for: ["inode/directory"])
        let bus = try NotificationBus(capabilities: .dunst, fileManager: false)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try writeManifest("files:\n" + entry("Guide A", "a.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }
        _ = try notifications(bus, count: 1)

        try bus.invokeAction(id: 1, key: "open-folder")

        #expect(eventually(within: .seconds(5)) { (try? String(contentsOfFile: opened, encoding: .utf8))?.hasSuffix("\n") == true })
        let launched = try String(contentsOfFile: opened, encoding: .utf8)
        #expect(launched == "\(destination) \n", "agent log: \(agentLog)")
    }

    @Test func soundFalseInTheManifestSilencesEvenAServerThatPlaysSounds() throws {
        let bus = try NotificationBus(capabilities: .gnomeShell)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try writeManifest("notify: { sound: false }\nfiles:\n" + entry("Guide A", "a.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }

        let success = try #require(try notifications(bus, count: 1).first)
        #expect(success.summary == "All files have been downloaded!")
        #expect(success.hints["sound-name"] == nil)
    }

    @Test func theManifestProblemNoticeClosesOnceTheManifestIsValidAgain() throws {
        let bus = try NotificationBus(capabilities: .xfce4Notifyd)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try writeManifest("files:\n" + entry("Guide A", "a.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }
        _ = try notifications(bus, count: 1)

        try writeManifest("files:\n" + entry("Guide A", "a.pdf") + "  - titel: B\n")
        let notice = try notifications(bus, count: 2)[1]
        #expect(notice.summary == "The manifest has a problem")
        #expect(notice.urgency == 2)
        #expect(notice.actions == ["edit-manifest", "Edit manifest"])
        #expect(notice.replacesID == 0, "a topic of its own: it does not replace the batch notification")

        try writeManifest("files:\n" + entry("Guide A", "a.pdf"))
        #expect(eventually(within: .seconds(5)) { (try? bus.recordedCalls().isEmpty) == false })
        #expect(try bus.recordedCalls() == [.init(method: "CloseNotification", arguments: [.integer(2)])])
    }

    @Test(arguments: [NotificationBus.Capabilities.dunst, .xfce4Notifyd, .gnomeShell, .minimal])
    func textThatLooksLikeMarkupIsEscapedWhereTheServerReadsMarkup(_ capabilities: NotificationBus.Capabilities) throws {
        let bus = try NotificationBus(capabilities: capabilities)
        try writeManifest("files:\n" + entry("R&D Report <draft> & Q&A", "missing.pdf"))
        let agent = try startAgent(on: bus)
        defer { stop(agent) }

        let failure = try #require(try notifications(bus, count: 1).first)
        let reason = "the server answered 404 Not Found"
        #expect(failure.summary == "1 file could not be downloaded")
        #expect(failure.body == (capabilities.names.contains("body-markup")
            ? "R&amp;D Report &lt;draft&gt; &amp; Q&amp;A: \(reason)"
            : "R&D Report <draft> & Q&A: \(reason)"))
    }

    @Test func onceOffersNoActionsAndMarksItsNotificationTransient() throws {
        let bus = try NotificationBus(capabilities: .gnomeShell)
        try server.serve("a.pdf", Data(repeating: 1, count: 1_000))
        try writeManifest("files:\n" + entry("Guide A", "a.pdf"))

        let run = try syncagent(on: bus).run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")])

        #expect(run.status == 0)
        let success = try #require(try bus.recordedNotifications().first)
        #expect(success.actions == [], "--once exits after posting: nobody would serve an action")
        #expect(success.hints["transient"] == .boolean(true))
        #expect(success.body == "1 file, 1.0 KB, in ~/Guides")
    }
}
