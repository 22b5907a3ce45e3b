import Foundation
import Testing
import TestSupport

/// The built binary where a library it opens on first use cannot be loaded: an empty file of
/// the library's name lies in a folder on `LD_LIBRARY_PATH`, which the dynamic loader searches
/// first, for the library and for its own dependencies alike, so the loader finds it and fails
/// ("file too short"), as with a broken install. Nothing of the machine is touched, and it needs
/// no privilege or namespace, so it runs in a chroot too.
@Suite(.serialized)
struct MissingLibraryTests {
    let server: NginxServer
    let bus: NotificationBus
    let folder: TemporaryDirectory
    let binary: String

    init() throws {
        server = try NginxServer()
        bus = try NotificationBus()
        folder = try TemporaryDirectory(prefix: "missing-library")
        binary = try BuiltProducts.executable(named: "syncagent")
        try server.serve("guides/Guide.pdf", Data(repeating: 7, count: 300_000))
        let manifest = "destination: \(folder.appending("Guides"))\nfiles:\n  - title: Guide\n    url: \(server.url("guides/Guide.pdf"))\n"
        try manifest.write(toFile: folder.appending("manifest.yaml"), atomically: true, encoding: .utf8)
    }

    /// Runs `syncagent arguments…` on the test's manifest and state with `soname` unloadable.
    func run(_ arguments: [String], without soname: String) throws -> ToolRun {
        try ToolRun(command(arguments), environment: environment(without: soname))
    }

    /// `syncagent arguments…` on the test's manifest and state.
    func command(_ arguments: [String]) -> [String] {
        [binary] + arguments + ["--manifest", folder.appending("manifest.yaml"), "--state-dir", folder.appending("state")]
    }

    /// The environment in which the loader finds `soname` broken: an empty file of that name in
    /// a folder of the test's own on `LD_LIBRARY_PATH`.
    func environment(without soname: String) throws -> [String: String] {
        let libraries = folder.appending("broken-libraries")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: brokenPath(of: soname), contents: nil) else {
            throw TestSupportError("cannot create \(brokenPath(of: soname))")
        }
        return bus.clientEnvironment.merging(
            ["HOME": folder.appending("home"), "PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": libraries]
        ) { _, given in given }
    }

    /// Where the broken `soname` lies: the path the loader's message names.
    func brokenPath(of soname: String) -> String {
        folder.appending("broken-libraries/\(soname)")
    }

    var downloaded: Data? { FileManager.default.contents(atPath: folder.appending("Guides/Guide.pdf")) }

    @Test func withoutLibcurlOnceStopsAndSaysWhichPackageToInstall() throws {
        let run = try run(["--once"], without: "libcurl.so.4")
        #expect(run.status == 3)
        let path = brokenPath(of: "libcurl.so.4")
        #expect(run.standardError == "syncagent: libcurl cannot be loaded (\(path): file too short): install the Debian package "
            + "libcurl4; downloads need it; `check`, `status` and the other commands that download nothing work without it\n")
        #expect(downloaded == nil)
    }

    @Test func withoutLibcurlTheCommandsThatDownloadNothingWork() throws {
        let check = try run(["check"], without: "libcurl.so.4")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("Guide.pdf"))
        let status = try run(["status"], without: "libcurl.so.4")
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardError.isEmpty)
    }

    @Test func withoutSQLiteWhatReadsTheStateStopsAndSaysWhichPackageToInstallAndCheckWorks() throws {
        let path = brokenPath(of: "libsqlite3.so.0")
        for arguments in [["--once"], ["status"]] {
            let run = try run(arguments, without: "libsqlite3.so.0")
            #expect(run.status == 3, "\(arguments): \(run.standardError)")
            #expect(run.standardError == "syncagent: SQLite cannot be loaded (\(path): file too short): install the Debian package "
                + "libsqlite3-0; the saved state needs it; `check` and the commands that read no state work without it\n")
        }
        #expect(downloaded == nil)
        let check = try run(["check"], without: "libsqlite3.so.0")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("Guide.pdf"))
    }

    @Test(arguments: ["libnotify.so.4", "libgio-2.0.so.0"])
    func withoutLibnotifyOrGLibOnceDownloadsAndSaysOnceThatNotificationsAreSkipped(_ soname: String) throws {
        let run = try run(["--once"], without: soname)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(downloaded?.count == 300_000)
        // Without GLib, libnotify (which needs it) cannot be loaded either: the same one line.
        let told = run.standardError.split(separator: "\n").filter { $0.contains("cannot be loaded") }
        #expect(told.count == 1, "\(run.standardError)")
        #expect(told.first?.contains("libnotify cannot be loaded (") == true, "\(run.standardError)")
        // The package named is that of the file the loader failed on: GLib's, when it is GLib.
        let remedy = soname == "libnotify.so.4" ? "libnotify4" : "libglib2.0-0 (libgio-2.0.so.0, which libnotify.so.4 needs)"
        #expect(told.first?.contains("install the Debian package \(remedy); notifications are skipped; everything else goes on") == true, "\(run.standardError)")
        #expect(try bus.recordedNotifications().isEmpty)
    }

    @Test func withoutGLibTheAgentDownloadsReadsPowerFromSysfsAndSaysOnceThatNotificationsAreSkipped() throws {
        let log = folder.appending("agent.err")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let command = command([])
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: command[0])
        agent.arguments = Array(command.dropFirst())
        agent.environment = try environment(without: "libgio-2.0.so.0")
        agent.standardInput = FileHandle.nullDevice
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle(forWritingAtPath: log)
        try agent.run()
        defer {
            kill(agent.processIdentifier, SIGKILL)
            agent.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while downloaded == nil, agent.isRunning, ContinuousClock.now < deadline {
            usleep(50_000)
        }
        #expect(downloaded?.count == 300_000)
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        let conditions = lines.filter { $0.contains("conditions: ") }
        #expect(conditions.count == 1, "\(lines)")
        #expect(conditions.first?.contains(
            "power from /sys/class/power_supply (no GLib to ask UPower); network assumed available and unmetered (GLib's GIO cannot be loaded ("
        ) == true, "\(lines)")
        #expect(lines.filter { $0.contains("libnotify cannot be loaded") }.count == 1, "\(lines)")
    }
}
