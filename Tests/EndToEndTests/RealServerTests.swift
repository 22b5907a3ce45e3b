import Foundation
import Testing
import TestSupport

/// The same checks against servers nobody on this project wrote — nginx, lighttpd and Python's
/// http.server, each started on 127.0.0.1 by the test — through the built binary: a fresh
/// download is byte-identical, a re-check finds the file unchanged and rewrites nothing, and a
/// download interrupted past 1 MiB continues with a `Range` request where the server honours
/// one, or starts over where it does not (Python's http.server), and ends byte-identical.
@Suite(.serialized)
struct RealServerTests {
    /// The servers the checks run against.
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case nginx, lighttpd, pythonHTTPServer

        var testDescription: String { rawValue }

        /// Starts the server, with files under `slow/` sent at ``RealServerTests/slowRate``.
        func start() throws -> any ServerUnderTest {
            switch self {
            case .nginx: try NginxServer(locations: "location /slow/ { limit_rate \(RealServerTests.slowRate); }")
            case .lighttpd: try LighttpdServer(slowRate: RealServerTests.slowRate)
            case .pythonHTTPServer: try PythonHTTPServer(throttle: RealServerTests.slowRate)
            }
        }
    }

    /// Bytes a second for `slow/`: an interrupted 6 MiB file is cut a little after 1 MiB, with
    /// seconds to spare on a loaded machine.
    static let slowRate = 2 << 20
    static let mebibyte = 1 << 20

    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "real-server")
    }

    var destination: String { folder.appending("Guides") }

    /// Writes a manifest of one file, `path` on `server`, and returns what is served there.
    func serveOneFile(_ path: String, size: Int, on server: any ServerUnderTest) throws -> Data {
        let data = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: size)
        try server.serve(path, data)
        try "destination: \(destination)\nnotify: false\nfiles:\n  - title: Guide\n    url: \(server.url(path))\n"
            .write(toFile: folder.appending("manifest.yaml"), atomically: true, encoding: .utf8)
        return data
    }

    /// Starts `syncagent --once` where `server` can be reached; its output goes to `NAME.out`
    /// and `NAME.err`.
    func startOnce(reaching server: any ServerUnderTest, output: String) throws -> Process {
        let command = server.clientPrefix + [try BuiltProducts.executable(named: "syncagent")]
            + ["--once", "--manifest", folder.appending("manifest.yaml"), "--state-dir", folder.appending("state")]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path)
        environment["HOME"] = folder.appending("home")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        for suffix in [".out", ".err"] {
            _ = FileManager.default.createFile(atPath: folder.appending(output + suffix), contents: nil)
        }
        process.standardOutput = FileHandle(forWritingAtPath: folder.appending(output + ".out"))
        process.standardError = FileHandle(forWritingAtPath: folder.appending(output + ".err"))
        try process.run()
        return process
    }

    /// What the run named `output` wrote, standard output and error.
    func written(by output: String) -> String {
        [".out", ".err"].map { (try? String(contentsOfFile: folder.appending(output + $0), encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }

    /// Runs `syncagent --once` to its end: its exit status and what it wrote.
    func once(reaching server: any ServerUnderTest, output: String) throws -> (status: Int32, output: String) {
        let process = try startOnce(reaching: server, output: output)
        process.waitUntilExit()
        return (process.terminationStatus, written(by: output))
    }

    func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: destination + "/" + name)
    }

    /// The size of the largest file under the test's folder other than the file in place:
    /// the partial download, wherever the engine keeps it.
    func largestPartial(besides name: String) -> Int {
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
        var largest = 0
        for case let relative as String in files where folder.appending(relative) != destination + "/" + name {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appending(relative))
            if attributes?[.type] as? FileAttributeType == .typeRegular, let size = attributes?[.size] as? Int {
                largest = max(largest, size)
            }
        }
        return largest
    }

    @Test(arguments: Kind.allCases) func aFreshDownloadIsByteIdentical(_ kind: Kind) throws {
        let server = try kind.start()
        let data = try serveOneFile("guides/a.pdf", size: 700_000, on: server)
        let run = try once(reaching: server, output: "first")
        #expect(run.status == 0, "\(run.output)")
        #expect(contents("a.pdf") == data)
        #expect(server.loggedRequests(for: "/guides/a.pdf", count: 1).map(\.status) == [200])
    }

    @Test(arguments: Kind.allCases) func aRecheckIsUnchangedAndRewritesNothing(_ kind: Kind) throws {
        let server = try kind.start()
        let data = try serveOneFile("guides/a.pdf", size: 700_000, on: server)
        #expect(try once(reaching: server, output: "first").status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: destination + "/a.pdf")
        let run = try once(reaching: server, output: "second")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("unchanged"), "\(run.output)")
        let after = try FileManager.default.attributesOfItem(atPath: destination + "/a.pdf")
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(contents("a.pdf") == data)
        #expect(server.loggedRequests(for: "/guides/a.pdf", count: 2).map(\.status) == [200, 304])
    }

    @Test(arguments: Kind.allCases) func anInterruptedDownloadPastOneMebibyteEndsByteIdentical(_ kind: Kind) throws {
        let server = try kind.start()
        let data = try serveOneFile("slow/big.bin", size: 6 * Self.mebibyte, on: server)
        let first = try startOnce(reaching: server, output: "first")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(eventually(within: .seconds(30)) { largestPartial(besides: "big.bin") > Self.mebibyte || !first.isRunning })
        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        #expect(first.terminationStatus == 130)
        // Nothing torn under the real name; the partial kept for the next run where the server
        // serves ranges, and said to start over where it does not.
        #expect(contents("big.bin") == nil)
        let kept = largestPartial(besides: "big.bin")
        if server.honoursRange {
            #expect(kept > Self.mebibyte && kept < data.count)
            #expect(written(by: "first").contains("the next run resumes Guide where it stopped"), "\(written(by: "first"))")
        } else {
            #expect(kept < Self.mebibyte, "no partial of the download is kept; the state's own files are small")
            #expect(written(by: "first").contains("the next run starts Guide over"), "\(written(by: "first"))")
        }

        let second = try once(reaching: server, output: "second")
        #expect(second.status == 0, "\(second.output)")
        #expect(contents("big.bin") == data)
        let requests = server.loggedRequests(for: "/slow/big.bin", count: 2)
        #expect(requests.count == 2)
        guard let resumed = requests.dropFirst().first else { return }
        if server.honoursRange {
            #expect(resumed.status == 206)
            let offset = resumed.range.flatMap { Int($0.dropFirst("bytes=".count).prefix { $0 != "-" }) }
            #expect(offset.map { $0 > Self.mebibyte && $0 <= kept } == true, "Range: \(resumed.range ?? "nil"), kept \(kept)")
        } else {
            // The whole file again, written from the start: no byte of the old partial is trusted.
            #expect(resumed.status == 200)
        }
    }

    /// The file changed on the server while the download was interrupted: the next run must not
    /// splice the old partial onto the new file's tail (`If-Range` makes the server send it whole).
    @Test(arguments: Kind.allCases) func aFileChangedWhileInterruptedEndsAsTheNewFile(_ kind: Kind) throws {
        let server = try kind.start()
        _ = try serveOneFile("slow/big.bin", size: 6 * Self.mebibyte, on: server)
        let first = try startOnce(reaching: server, output: "first")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(eventually(within: .seconds(30)) { largestPartial(besides: "big.bin") > Self.mebibyte || !first.isRunning })
        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        #expect(first.terminationStatus == 130)

        // Same size, new bytes, a modification time well apart from the old one.
        let changed = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: 6 * Self.mebibyte)
        try server.serve("slow/big.bin", changed)
        let file = URL(fileURLWithPath: server.root + "/slow/big.bin")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: file.path)
        let second = try once(reaching: server, output: "second")
        #expect(second.status == 0, "\(second.output)")
        #expect(contents("big.bin") == changed)
    }
}

/// A real server as the checks above see it.
protocol ServerUnderTest: Sendable {
    /// Whether the server answers a `Range` request with 206 and logs the header.
    var honoursRange: Bool { get }
    /// Words to put before the client's command line so it reaches the server.
    var clientPrefix: [String] { get }
    /// The folder served.
    var root: String { get }
    func url(_ path: String) -> String
    func serve(_ path: String, _ contents: Data) throws
    /// The logged requests for `uri` once there are `count`, or what there is after a while.
    func loggedRequests(for uri: String, count: Int) -> [LoggedRequest]
}

extension NginxServer: ServerUnderTest {
    var honoursRange: Bool { true }
    var clientPrefix: [String] { [] }
    func loggedRequests(for uri: String, count: Int) -> [LoggedRequest] {
        requests(for: uri, count: count).map { LoggedRequest(method: $0.method, uri: $0.uri, status: $0.status, range: $0.range) }
    }
}

extension LighttpdServer: ServerUnderTest {
    var honoursRange: Bool { true }
    var clientPrefix: [String] { [] }
    func loggedRequests(for uri: String, count: Int) -> [LoggedRequest] { requests(for: uri, count: count) }
}

extension PythonHTTPServer: ServerUnderTest {
    var honoursRange: Bool { false }
    func loggedRequests(for uri: String, count: Int) -> [LoggedRequest] { requests(for: uri, count: count) }
}
