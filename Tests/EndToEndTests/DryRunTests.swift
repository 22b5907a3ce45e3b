import Foundation
import Testing
import TestSupport

/// `syncagent --once --dry-run` (issue 15): what would be fetched and why, and nothing on
/// disk changes — no state, no lock, no files, no partials — nor is any server asked.
extension TerminalFaceTests {
    /// Every file and folder under the test's folder but the captured outputs of runs: its
    /// kind, size, modification time and bytes.
    func snapshot() -> [String: String] {
        var entries: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return entries }
        for case let name as String in walker where !name.hasSuffix(".out") && !name.hasSuffix(".err") {
            var info = stat()
            lstat(folder.appending(name), &info)
            let bytes = FileManager.default.contents(atPath: folder.appending(name)).map { "\($0.hashValue)" } ?? "-"
            entries[name] = "\(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(bytes)"
        }
        return entries
    }

    func dryRun(_ extra: [String] = []) throws -> SyncAgentProcess.Run {
        let before = snapshot()
        let requests = server.requests().count
        let run = try syncagent.run(["--once", "--dry-run"] + extra + locationArguments)
        #expect(snapshot() == before, "a dry run changed the disk")
        #expect(server.requests().count == requests, "a dry run asked the server")
        return run
    }

    @Test func aDryRunSaysWhatWouldBeFetchedAndWhyAndChangesNothing() throws {
        try server.serve("a.pdf", Data(repeating: 7, count: 1_000))
        try server.serve("b.pdf", Data(repeating: 8, count: 1_000))
        try """
            destination: ~/Guides
            files:
              - title: Guide A
                url: \(server.url("a.pdf"))
              - title: Big Guide
                url: \(server.url("b.pdf"))
                path: big.pdf
              - title: Gone Guide
                url: \(server.url("gone.pdf"))

            """.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let first = try dryRun(["--verbose"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == """
            syncagent --once would fetch 3 of 3 files into ~/Guides (a dry run: nothing was changed)
              fetch  Guide A → a.pdf: missing
                     \(server.url("a.pdf"))
              fetch  Big Guide → big.pdf: missing
                     \(server.url("b.pdf"))
              fetch  Gone Guide → gone.pdf: missing
                     \(server.url("gone.pdf"))

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("state")), "no state folder before a real run")

        #expect(try syncagent.run(["--once", "--no-notify"] + locationArguments).status == 1)
        #expect(try syncagent.run(["pause", "big"] + locationArguments).status == 5)
        let second = try dryRun()
        #expect(second.status == 0)
        let lines = second.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "syncagent --once would fetch 2 of 3 files into ~/Guides (a dry run: nothing was changed)")
        #expect(lines.dropFirst().first?.hasPrefix("  fetch  Guide A → a.pdf: re-check, downloaded only if it changed on the server (by its schedule not due for ") == true, "\(lines)")
        #expect(lines.dropFirst(2).first == "  skip   Big Guide → big.pdf: paused; `syncagent resume` releases it")
        #expect(lines.dropFirst(3).first?.hasPrefix("  fetch  Gone Guide → gone.pdf: failed last time: the server answered 404") == true, "\(lines)")
    }

    @Test func aDryRunSaysADeletedFileIsMissing() throws {
        try writeManifest(missing: false)
        #expect(try syncagent.run(["--once", "--no-notify"] + locationArguments).status == 0)
        #expect(unlink(destination + "/a.pdf") == 0)
        let run = try dryRun()
        #expect(run.standardOutput.contains("  fetch  Guide A → a.pdf: missing\n"), "\(run.standardOutput)")
    }

    @Test func aDryRunSaysWhichFeedsWouldBeCheckedAndWhyWithoutFetchingThem() throws {
        try server.serve("a.pdf", Data(repeating: 7, count: 1_000))
        try server.serve("ep1.mp3", Data(repeating: 1, count: 2_000))
        try server.serve("feed.xml", Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>ATP</title><item><title>One</title><guid>1</guid>
            <enclosure url="\(server.url("ep1.mp3"))" type="audio/mpeg"/></item></channel></rss>
            """.utf8))
        try """
            destination: ~/Guides
            files:
              - title: Guide A
                url: \(server.url("a.pdf"))
            feeds:
              - title: ATP
                url: \(server.url("feed.xml"))

            """.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let first = try dryRun()
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == """
            syncagent --once would check 1 of 1 feed and fetch 1 of 1 file into ~/Guides (a dry run: nothing was changed)
              check  ATP → ATP/: never checked; the episodes it wants are fetched after it
              fetch  Guide A → a.pdf: missing

            """)

        #expect(try syncagent.run(["--once", "--no-notify"] + locationArguments).status == 0)
        #expect(try syncagent.run(["pause", "ATP"] + locationArguments).status == 5)
        let paused = try dryRun()
        #expect(paused.standardOutput.hasPrefix("syncagent --once would check 0 of 1 feed and fetch 1 of 1 file into ~/Guides"), "\(paused.standardOutput)")
        #expect(paused.standardOutput.contains("\n  skip   ATP → ATP/: paused; `syncagent resume` releases it\n"), "\(paused.standardOutput)")

        #expect(try syncagent.run(["resume", "ATP"] + locationArguments).status == 5)
        let resumed = try dryRun()
        #expect(resumed.standardOutput.contains("\n  check  ATP → ATP/: re-check, read only if it changed on the server (by its schedule not due for "),
                "\(resumed.standardOutput)")
    }
}
