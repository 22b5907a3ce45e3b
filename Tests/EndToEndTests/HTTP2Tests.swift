import Foundation
import Testing
import TestSupport

/// Real mirrors speak HTTPS, and HTTP/2 where they can: many files of one host then share one
/// connection, their transfers multiplexed on it. Against nginx over TLS 1.3 with HTTP/2, a
/// batch of small files, eight at a time, must arrive whole, and a re-check must find them
/// unchanged — libcurl 7.88 leaves handles of multiplexed transfers in a state where sizing
/// their buffer again fails ("A libcurl function was given a bad argument"), which once failed
/// one transfer in ten.
@Suite(.serialized)
struct HTTP2Tests {
    let server: NginxServer
    let folder: TemporaryDirectory
    let syncagent: SyncAgentProcess
    static let count = 120

    init() throws {
        server = try NginxServer(tls: true)
        folder = try TemporaryDirectory(prefix: "http2-e2e")
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: folder.path)
        environment["HOME"] = folder.appending("home")
        environment["CURL_CA_BUNDLE"] = server.certificatePath
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        syncagent = try SyncAgentProcess(environment: environment, folder: folder)
    }

    @Test func manyFilesMultiplexedOnOneConnectionArriveWholeAndRecheckUnchanged() throws {
        var served: [String: Data] = [:]
        var manifest = "destination: \(folder.appending("Files"))\nnotify: false\nlimits: { concurrent: 8, per_host: 8 }\nfiles:\n"
        for index in 0..<Self.count {
            let name = String(format: "f%03d.bin", index)
            // Every tenth is larger than a read: the handles reused after a multiplexed transfer
            // read it 16 KiB at a time (see CurlEasy.resetForReuse).
            let length = 1024 + index * 13 + (index.isMultiple(of: 10) ? 300_000 : 0)
            served[name] = FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: length)
            try server.serve(name, served[name]!)
            manifest += "  - url: \(server.secureURL(name))\n"
        }
        let manifestPath = folder.appending("manifest.yaml")
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let arguments = ["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")]

        let fetch = try syncagent.run(arguments, output: "fetch")
        #expect(fetch.status == 0, "\(fetch.standardOutput)\(fetch.standardError)")
        for (name, data) in served {
            #expect(FileManager.default.contents(atPath: folder.appending("Files/" + name)) == data, "\(name)")
        }
        let recheck = try syncagent.run(arguments, output: "recheck")
        #expect(recheck.status == 0, "\(recheck.standardOutput)\(recheck.standardError)")
        #expect(recheck.standardOutput.contains("\(Self.count) unchanged"), "\(recheck.standardOutput)")

        let requests = logged(atLeast: 2 * Self.count, within: .seconds(2)) { server.requests() }
        #expect(requests.count == 2 * Self.count)
        #expect(requests.allSatisfy { $0.protocol == "HTTP/2.0" }, "\(Set(requests.map(\.protocol)))")
    }

    /// Files that start together wait for the first connection's handshake to say it
    /// multiplexes, then share it: one TLS handshake, not one per file (five handshakes took
    /// 40 % of a five-file re-check's instructions).
    @Test func transfersThatStartTogetherShareOneConnection() throws {
        var manifest = "destination: \(folder.appending("Files"))\nnotify: false\nlimits: { concurrent: 8, per_host: 8 }\nfiles:\n"
        for index in 0..<5 {
            let name = "together\(index).bin"
            try server.serve(name, Data(repeating: UInt8(index), count: 100_000))
            manifest += "  - url: \(server.secureURL(name))\n"
        }
        let manifestPath = folder.appending("together.yaml")
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)

        let fetch = try syncagent.run(["--once", "--manifest", manifestPath, "--state-dir", folder.appending("state")],
                                      output: "together")
        #expect(fetch.status == 0, "\(fetch.standardOutput)\(fetch.standardError)")

        let requests = logged(atLeast: 5, within: .seconds(2)) { server.requests() }
        #expect(requests.count == 5)
        #expect(Set(requests.map(\.connection)).count == 1, "connections: \(requests.map(\.connection))")
    }
}
