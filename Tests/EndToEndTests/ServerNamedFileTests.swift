import Foundation
import Testing
import TestSupport

/// Files whose URL names no file (`download.php?…`): saved under the name the server gives in
/// `Content-Disposition`, made safe, never another entry's name, chosen once and kept (issue
/// 15). Against nginx on 127.0.0.1, whose `add_header` sends the names.
@Suite(.serialized)
struct ServerNamedFileTests {
    let server: NginxServer
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        server = try NginxServer(locations: """
            location = /download.php {
                default_type application/pdf;
                set $served "UTF-8''Annual%20Report%20%E2%80%94%202026.pdf";
                if (-f $document_root/renamed) { set $served "UTF-8''Other%20Name.pdf"; }
                add_header Content-Disposition "attachment; filename=\\"fallback.pdf\\"; filename*=$served";
                rewrite ^ /report.bin break;
            }
            location = /evil.php {
                add_header Content-Disposition 'attachment; filename="../../.bashrc"';
                rewrite ^ /evil.bin break;
            }
            location = /clash.php {
                add_header Content-Disposition 'attachment; filename="taken.pdf"';
                rewrite ^ /clash.bin break;
            }
            location = /folder.php {
                add_header Content-Disposition 'attachment; filename="Reports"';
                rewrite ^ /folder.bin break;
            }
            location = /slow.php {
                limit_rate 1m;
                add_header Content-Disposition 'attachment; filename="Big Book.pdf"';
                rewrite ^ /big.bin break;
            }
            location = /plain.php {
                rewrite ^ /plain.bin break;
            }
            """)
        folder = try TemporaryDirectory(prefix: "served-name")
        var environment = ProcessInfo.processInfo.environment.filter { ["PATH", "LANG"].contains($0.key) }
        environment["HOME"] = folder.appending("home")
        environment["LANG"] = "C.UTF-8"
        // No session bus: --no-notify asks for none anyway.
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var destination: String { folder.appending("Files") }
    var arguments: [String] { ["--manifest", manifestPath, "--state-dir", folder.appending("state")] }

    func contents(_ name: String) -> Data? { FileManager.default.contents(atPath: destination + "/" + name) }

    /// The name is known only when the head arrives: the partial is staged under the
    /// entry's own name, where the next run finds and continues it, and the whole file then
    /// goes to the server's name.
    @Test func anInterruptedDownloadResumesAndEndsUnderTheServersName() throws {
        let data = Data((0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try server.serve("big.bin", data)
        try "destination: \(destination)\nfiles:\n  - title: Big\n    url: \(server.url("slow.php?file=big.pdf"))\n"
            .write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let part = destination + "/.big.pdf.part"
        let first = try syncagent.start(["--once", "--no-notify"] + arguments, output: "first")
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0 < 1_200_000 {
            usleep(20_000)
        }
        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        #expect(first.terminationStatus == 130)
        #expect(((try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0) >= 1_200_000)

        let second = try syncagent.run(["--once", "--no-notify"] + arguments)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(server.requests(for: "/slow.php?file=big.pdf").last?.range.hasPrefix("bytes=") == true, "the second run continued the partial")
        #expect(contents("Big Book.pdf") == data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["Big Book.pdf"])
    }

    @Test func theServersNameIsUsedMadeSafeNeverAnotherEntrysAndKept() throws {
        let first = Data(repeating: 1, count: 200_000), second = Data(repeating: 2, count: 300_000)
        try server.serve("report.bin", first)
        try server.serve("evil.bin", Data("evil".utf8))
        try server.serve("clash.bin", Data("clash".utf8))
        try server.serve("plain.bin", Data("plain".utf8))
        try server.serve("taken.pdf", Data("taken".utf8))
        try server.serve("folder.bin", Data("folder".utf8))
        try """
            destination: \(destination)
            files:
              - title: Report
                url: \(server.url("download.php?id=1&file=query-name.pdf"))
              - title: Evil
                url: \(server.url("evil.php"))
              - title: Clash
                url: \(server.url("clash.php"))
              - title: Plain
                url: \(server.url("plain.php?file=from-query.pdf"))
              - title: Taken
                url: \(server.url("taken.pdf"))
              - title: Folder
                url: \(server.url("folder.php"))
              - title: Quarter
                url: \(server.url("taken.pdf"))
                path: reports/q1.pdf

            """.write(toFile: manifestPath, atomically: true, encoding: .utf8)

        let check = try syncagent.run(["check"] + arguments)
        #expect(check.standardOutput.contains("→ query-name.pdf  (or the name the server gives it, the first time: Content-Disposition)"), "\(check.standardOutput)")

        let run = try syncagent.run(["--once", "--no-notify"] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(contents("Annual Report — 2026.pdf") == first, "filename* wins over filename")
        #expect(contents("bashrc") == Data("evil".utf8), "never a path, never hidden")
        #expect(contents("clash.php") == Data("clash".utf8), "another entry's name is not taken: the URL's own name instead")
        #expect(contents("taken.pdf") == Data("taken".utf8))
        #expect(contents("from-query.pdf") == Data("plain".utf8), "no Content-Disposition: the query's name")
        #expect(contents("folder.php") == Data("folder".utf8), "another entry's folder (in any case) is not taken either")
        #expect(contents("reports/q1.pdf") == Data("taken".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted()
            == ["Annual Report — 2026.pdf", "bashrc", "clash.php", "folder.php", "from-query.pdf", "reports", "taken.pdf"])

        // The server changes the file and the name it gives: the file is updated, not renamed.
        try server.serve("report.bin", second)
        _ = FileManager.default.createFile(atPath: server.root + "/renamed", contents: Data())
        #expect(try syncagent.run(["--once", "--no-notify"] + arguments).status == 0)
        #expect(contents("Annual Report — 2026.pdf") == second)
        #expect(contents("Other Name.pdf") == nil)
        #expect(try syncagent.run(["check"] + arguments).standardOutput.contains("→ Annual Report — 2026.pdf  (the name its server gave it)\n"))
        let dryRun = try syncagent.run(["--once", "--dry-run"] + arguments)
        #expect(dryRun.standardOutput.contains("Report → Annual Report — 2026.pdf: re-check"), "\(dryRun.standardOutput)")

        // What the server named is syncagent's file: reset deletes it.
        #expect(try syncagent.run(["reset", "--yes"] + arguments).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["reports"], "only files are deleted")
    }
}
