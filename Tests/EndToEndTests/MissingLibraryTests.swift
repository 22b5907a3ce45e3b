import Foundation
import Testing
import TestSupport

/// The built binary where a library it opens on first use cannot be loaded: in a mount
/// namespace of the test's own (`unshare --user --mount`), an empty file lies over the library,
/// so the dynamic loader finds it and fails ("file too short"), as with a broken install.
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
        let path = try Self.path(of: soname)
        let hideAndRun = #"mount --bind /dev/null "$0" && exec "$@""#
        let locations = ["--manifest", folder.appending("manifest.yaml"), "--state-dir", folder.appending("state")]
        return try ToolRun(
            ["/usr/bin/unshare", "--user", "--map-current-user", "--mount", "--", "/bin/sh", "-c", hideAndRun, path, binary]
                + arguments + locations,
            environment: bus.clientEnvironment.merging(["HOME": folder.appending("home")]) { _, home in home }
        )
    }

    /// Where the dynamic loader finds `soname`, from its cache.
    static func path(of soname: String) throws -> String {
        let cache = try ToolRun(["/sbin/ldconfig", "-p"])
        let line = cache.standardOutput.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }
        guard let path = line?.split(separator: " ").last else { throw TestSupportError("ldconfig -p does not list \(soname)") }
        return String(path)
    }

    var downloaded: Data? { FileManager.default.contents(atPath: folder.appending("Guides/Guide.pdf")) }

    @Test func withoutLibcurlOnceStopsAndSaysWhichPackageToInstall() throws {
        let run = try run(["--once"], without: "libcurl.so.4")
        #expect(run.status == 3)
        let path = try Self.path(of: "libcurl.so.4")
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

    @Test func withoutLibnotifyOnceDownloadsAndSaysOnceThatNotificationsAreSkipped() throws {
        let run = try run(["--once"], without: "libnotify.so.4")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(downloaded?.count == 300_000)
        let told = run.standardError.split(separator: "\n").filter { $0.contains("libnotify") }
        #expect(told.count == 1, "\(run.standardError)")
        #expect(told.first?.contains("install the Debian package libnotify4; notifications are skipped; everything else goes on") == true)
        #expect(try bus.recordedNotifications().isEmpty)
    }

    @Test func withoutGLibOnceStillDownloads() throws {
        // libnotify needs GLib too: the one line says so.
        let run = try run(["--once"], without: "libgio-2.0.so.0")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(downloaded?.count == 300_000)
        let told = run.standardError.split(separator: "\n").filter { $0.contains("cannot be loaded") }
        #expect(told.count == 1, "\(run.standardError)")
    }
}
