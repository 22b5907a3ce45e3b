import Foundation
import Testing
import TestSupport

/// `syncagent --once`, the built binary, against a fault-injecting server on 127.0.0.1 (HTTP
/// and HTTPS, its certificate trusted through `CURL_CA_BUNDLE`): one batch meets every kind of
/// fault at once, and each file ends whole, or failed with a clear reason and its old version.
@Suite(.serialized)
struct FaultTests {
    let server: FaultServer
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess

    init() throws {
        server = try FaultServer(tls: true)
        folder = try TemporaryDirectory(prefix: "faults-e2e")
        var environment = SyncAgentProcess.homeEnvironment(NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path), in: folder)
        environment["CURL_CA_BUNDLE"] = server.certificatePath
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    var manifestPath: String { folder.appending("manifest.yaml") }
    var stateDirectory: String { folder.appending("state") }
    var destination: String { folder.appending("Guides") }

    func writeManifest(_ files: [(title: String, url: String)], paths: [String: String] = [:]) throws {
        var text = """
            destination: \(destination)
            notify: false
            limits: { concurrent: 8, per_host: 8 }
            retry: { attempts: 4, backoff: 100ms..2s }
            files:

            """
        for file in files {
            text += "  - title: \(file.title)\n    url: \(file.url)\n"
            if let path = paths[file.title] { text += "    path: \(path)\n" }
        }
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    func once() throws -> SyncAgentProcess.Run {
        try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", stateDirectory])
    }

    func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: destination + "/" + name)
    }

    /// Why `title` failed, from the plain progress lines of a run ("failed   TITLE: REASON").
    func failure(of title: String, in run: SyncAgentProcess.Run) -> String? {
        for line in run.standardOutput.split(separator: "\n") where line.hasPrefix("failed") {
            let rest = line.dropFirst("failed".count).drop { $0 == " " }
            if rest.hasPrefix(title + ": ") {
                // The line ends by naming the server, " (127.0.0.1:PORT)": the reason is before.
                let reason = String(rest.dropFirst(title.count + 2))
                return reason.replacingOccurrences(of: #" \((127\.0\.0\.1|localhost)(:\d+)?\)$"#, with: "", options: .regularExpression)
            }
        }
        return nil
    }

    /// Every `.part` file left anywhere under the destination.
    func partials() -> [String] {
        let names = FileManager.default.enumerator(atPath: destination)?.allObjects as? [String] ?? []
        return names.filter { $0.hasSuffix(".part") }
    }

    @Test func oneBatchMeetsEveryFaultAndLosesNothing() throws {
        var expected: [String: Data] = [:]
        func file(_ name: String, size: Int, etag: String? = nil, _ responses: [FaultResponse]) throws -> String {
            let data = Data((0..<size).map { _ in UInt8.random(in: 0...255) })
            try server.serve("/\(name)", data, etag: etag, responses: responses)
            expected[name] = data
            return server.url("/\(name)")
        }
        let changed = Data((0..<700_000).map { _ in UInt8.random(in: 0...255) })
        var careless = FaultResponse.changed(to: changed, etag: "\"careless-2\"")
        careless.ignoreIfRange = true
        let files: [(title: String, url: String)] = [
            ("Cut", try file("cut.pdf", size: 900_000, [.cut(after: 300_000), .normal])),
            ("Short", try file("short.pdf", size: 600_000, [.short(sending: 200_000), .normal])),
            ("Busy", try file("busy.pdf", size: 50_000, [.status(503, retryAfter: "1"), .normal])),
            ("Limited", try file("limited.pdf", size: 50_000, [.status(429, retryAfter: "1"), .normal])),
            ("Broken", try file("broken.pdf", size: 50_000, [.status(500), .status(502), .normal])),
            ("Changed", try file("changed.pdf", size: 600_000, etag: "\"changed-1\"", [.cut(after: 250_000), .changed(to: changed, etag: "\"changed-2\"")])),
            ("Careless", try file("careless.pdf", size: 600_000, etag: "\"careless-1\"", [.cut(after: 250_000), careless])),
            ("No range", try file("norange.pdf", size: 800_000, [.cut(after: 300_000), .ignoringRange])),
            ("Bad range", try file("badrange.pdf", size: 800_000, [.cut(after: 300_000), .contentRange("bytes 0-799999/800000"), .normal])),
            ("Deep", try file("deep.pdf", size: 10_000, [])),
            ("Secure", server.secureURL("/secure.pdf")),
            ("Soft 404", server.url("/soft404.pdf")),
            ("Loop", server.url("/loop.pdf")),
            ("FTP", server.url("/ftp.pdf")),
            ("Local file", server.url("/local.pdf")),
            ("Downgrade", server.secureURL("/downgrade.pdf")),
        ]
        expected["changed.pdf"] = changed
        expected["careless.pdf"] = changed
        let secure = Data((0..<20_000).map { _ in UInt8.random(in: 0...255) })
        try server.serve("/secure.pdf", secure)
        try server.serve("/soft404.pdf", Data(), responses: [.page("<!DOCTYPE html><html><body>Not here</body></html>")])
        try server.serve("/loop.pdf", Data(), responses: [.redirect(to: "/loop.pdf")])
        try server.serve("/ftp.pdf", Data(), responses: [.redirect(to: "ftp://127.0.0.1/ftp.pdf")])
        try server.serve("/local.pdf", Data(), responses: [.redirect(to: "file:///etc/passwd")])
        try server.serve("/downgrade.pdf", Data(), responses: [.redirect(to: server.url("/secure.pdf"))])
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        try Data("%PDF old version".utf8).write(to: URL(fileURLWithPath: destination + "/soft404.pdf"))
        try writeManifest(files, paths: ["Deep": "new/folders/deep.pdf"])

        let run = try once()
        #expect(run.status == 1, "\(run.standardOutput)\n\(run.standardError)")
        for (name, data) in expected where name != "deep.pdf" {
            #expect(contents(name) == data, "\(name)")
        }
        #expect(contents("new/folders/deep.pdf") == expected["deep.pdf"])
        #expect(contents("secure.pdf") == secure)
        #expect(contents("soft404.pdf") == Data("%PDF old version".utf8))
        for name in ["loop.pdf", "ftp.pdf", "local.pdf", "downgrade.pdf"] {
            #expect(contents(name) == nil, "\(name)")
        }
        #expect(partials().isEmpty, "\(partials())")

        #expect(failure(of: "Soft 404", in: run) == "the server sent a web page instead of the file")
        #expect(failure(of: "Loop", in: run) == "the server redirected too many times")
        #expect(failure(of: "FTP", in: run) == "the server redirected to an address that is not http or https")
        #expect(failure(of: "Local file", in: run) == "the server redirected to an address that is not http or https")
        #expect(failure(of: "Downgrade", in: run) == "the server redirected from https to plain http, which is not safe")
        let summary = run.standardOutput.split(separator: "\n").last ?? ""
        #expect(summary.hasPrefix("16 files in ") && summary.contains(": 11 downloaded (4.7 MB in "), "\(run.standardOutput)")
        #expect(summary.hasSuffix("), 5 failed"), "\(run.standardOutput)")

        // Waits the servers asked for were kept; resumes asked for the rest only.
        for path in ["/busy.pdf", "/limited.pdf"] {
            let times = server.requests(for: path).map(\.time)
            #expect(times.count == 2 && times[1] - times[0] >= 0.95, "\(path)")
        }
        let resumed = try #require(server.requests(for: "/cut.pdf").last)
        #expect(resumed.status == 206 && resumed.header("Range")?.hasPrefix("bytes=") == true)
        #expect(server.requests(for: "/loop.pdf").count <= 11)

        let status = try syncagent.run(["status", "--manifest", manifestPath, "--state-dir", stateDirectory])
        #expect(status.status == 0, "\(status.standardError)")
    }

    @Test func aFileLargerThanTheDiskIsRefusedBeforeWriting() throws {
        var huge = FaultResponse()
        huge.contentLength = 1 << 50
        try server.serve("/huge.iso", Data(repeating: 1, count: 1_000), responses: [huge])
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: destination + "/huge.iso"))
        try writeManifest([("Huge", server.url("/huge.iso"))])
        // Below max_size, so that the disk's free space is what refuses it.
        let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
        try manifest.replacingOccurrences(of: "per_host: 8 }", with: "per_host: 8, max_size: 2000TB }")
            .write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let run = try once()
        #expect(run.status == 1)
        #expect(failure(of: "Huge", in: run)?.hasPrefix("not enough space for \(destination)/huge.iso: 1126 TB needed, ") == true, "\(run.standardOutput)")
        #expect(contents("huge.iso") == Data("old".utf8))
        #expect(partials().isEmpty)
    }

    @Test func aDestinationSymlinkedOutOfTheFolderIsReplacedNotFollowed() throws {
        let outside = try TemporaryDirectory(prefix: "outside")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: outside.appending("precious.pdf")))
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: destination + "/guide.pdf", withDestinationPath: outside.appending("precious.pdf"))
        let data = Data((0..<30_000).map { _ in UInt8.random(in: 0...255) })
        try server.serve("/guide.pdf", data, lastModified: FaultServer.defaultLastModified)
        // The target's date matches the server's: a stat that followed the link would get a 304.
        var times = [timespec(tv_sec: 1_640_995_200, tv_nsec: 0), timespec(tv_sec: 1_640_995_200, tv_nsec: 0)]
        utimensat(AT_FDCWD, outside.appending("precious.pdf"), &times, 0)
        try writeManifest([("Guide", server.url("/guide.pdf"))])

        let run = try once()
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(FileManager.default.contents(atPath: outside.appending("precious.pdf")) == Data("precious".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: destination + "/guide.pdf")[.type] as? FileAttributeType == .typeRegular)
        #expect(contents("guide.pdf") == data)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func aDestinationThatCannotBeWrittenIsAClearError() throws {
        let disk = try ScratchMount(bytes: 1 << 20, readOnly: true)
        try server.serve("/a.pdf", Data(repeating: 7, count: 1_000))
        let text = "destination: \(disk.path)\nnotify: false\nretry: { attempts: 1 }\nfiles:\n  - title: A\n    url: \(server.url("/a.pdf"))\n"
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let run = try once()
        #expect(run.status == 1)
        #expect(failure(of: "A", in: run) == "cannot write in the folder \(disk.path): read-only file system", "\(run.standardOutput)")
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func theAgentOutlivesADiskThatFillsUpAndTheOldVersionStays() throws {
        let disk = try ScratchMount(bytes: 2 << 20)
        let old = Data((0..<600_000).map { _ in UInt8.random(in: 0...255) })
        try old.write(to: URL(fileURLWithPath: disk.appending("grows.pdf")))
        // No Content-Length: nothing warns in advance, the disk fills up mid-body.
        var unannounced = FaultResponse()
        unannounced.withoutLength = true
        try server.serve("/grows.pdf", Data(repeating: 9, count: 3 << 20), responses: [unannounced])
        let small = Data((0..<20_000).map { _ in UInt8.random(in: 0...255) })
        try server.serve("/small.pdf", small)
        let systemBus = try PrivateSystemBus()
        let networkManager = try FakeSystemService.networkManager(on: systemBus)
        defer { withExtendedLifetime(networkManager) {} }
        var environment = syncagent.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        let agentProcess = try SyncAgentProcess(environment: environment, folder: folder)
        func writeAgentManifest(_ files: [String]) throws {
            var text = "destination: \(disk.path)\nnotify: false\nfiles:\n"
            for name in files { text += "  - url: \(server.url("/" + name))\n" }
            try text.write(toFile: manifestPath + ".new", atomically: false, encoding: .utf8)
            rename(manifestPath + ".new", manifestPath)
        }
        try writeAgentManifest(["grows.pdf"])
        let agent = try agentProcess.start(["--manifest", manifestPath, "--state-dir", stateDirectory], output: "agent")
        defer {
            kill(agent.processIdentifier, SIGTERM)
            agent.waitUntilExit()
        }
        func log() -> String { (try? String(contentsOfFile: folder.appending("agent.err"), encoding: .utf8)) ?? "" }

        // It stops before the disk is full, keeping 5% of it free.
        #expect(eventually(within: .seconds(15)) { log().contains("grows.pdf: failed: stopped writing \(disk.path)/grows.pdf after ") }, "\(log())")
        #expect(agent.isRunning)
        #expect(FileManager.default.contents(atPath: disk.appending("grows.pdf")) == old)
        #expect(!FileManager.default.fileExists(atPath: disk.appending(".grows.pdf.part")))

        // Still at work: an entry added now is fetched into the room that is left.
        try writeAgentManifest(["grows.pdf", "small.pdf"])
        #expect(eventually(within: .seconds(10)) { FileManager.default.contents(atPath: disk.appending("small.pdf")) == small }, "\(log())")
        #expect(agent.isRunning)
    }

    @Test
    func aStalledBodyTimesOutAtTheManifestsStallTimeoutAndIsResumed() throws {
        let data = Data((0..<400_000).map { _ in UInt8.random(in: 0...255) })
        try server.serve("/stall.pdf", data, responses: [.stall(after: 100_000, for: .seconds(60)), .normal])
        let text = """
            destination: \(destination)
            notify: false
            limits: { stall_timeout: 2s }
            retry: { attempts: 2, backoff: 100ms..1s }
            files:
              - title: Stall
                url: \(server.url("/stall.pdf"))

            """
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let run = try once()
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(contents("stall.pdf") == data)
        // curl measures speed over five seconds: the stall is noticed 2 to 7 s after it began.
        #expect(run.duration < .seconds(15))
        let requests = server.requests(for: "/stall.pdf")
        #expect(requests.count == 2 && requests.last?.header("Range") == "bytes=100000-")
    }
}
