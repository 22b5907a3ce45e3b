import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A file in place is the resource, never its transfer encoding: a body a server compresses
/// on the fly is decoded (with a cap), an encoding nobody can decode is refused by name, and
/// a partial of decoded bytes is never continued with a range of encoded ones.
@Suite(.serialized)
struct ContentEncodingTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "encoding")
    }

    @Test func aFileApacheForcesGzipOnIsPutInPlaceDecodedAndThenFoundUnchanged() throws {
        let apache = try ApacheServer(directory: "SetEnv force-gzip 1\nSetOutputFilter DEFLATE")
        let data = compressibleData(600_000)
        try apache.serve("report.pdf", data)
        let destination = folder.appending("report.pdf")
        let request = TransferRequest(id: 0, url: apache.url("report.pdf"), destination: destination, expectedSHA256: sha256(data))

        let first = FaultRun([request], attempts: 1)
        #expect(first.outcome() == .downloaded(bytes: Int64(data.count)))
        #expect(contents(destination) == data)
        // Apache did compress it: a client that took the body as it came would hold gzip.
        #expect(apache.requests().first?.acceptEncoding == "identity")

        var again = request
        again.current = try #require(first.recorder.completion(0)?.validators)
        let second = FaultRun([again], attempts: 1)
        #expect(second.outcome() == .unchanged)
        // Apache logs a request after its response has gone out: wait for the second line.
        #expect(apache.requests(count: 2).last?.status == 304)
    }

    @Test func aPartialIsNeverContinuedWithARangeOfTheEncodedBody() throws {
        let apache = try ApacheServer(directory: "SetEnv force-gzip 1\nSetOutputFilter DEFLATE")
        let data = compressibleData(400_000)
        try apache.serve("resume.pdf", data)
        // An hour old: Apache takes a Last-Modified as a strong If-Range validator only then.
        try FileManager.default.setAttributes([.modificationDate: Date() - 3600], ofItemAtPath: apache.root + "/resume.pdf")
        let destination = folder.appending("resume.pdf")
        let request = TransferRequest(id: 0, url: apache.url("resume.pdf"), destination: destination)
        let first = FaultRun([request], attempts: 1)
        let lastModified = try #require(first.recorder.completion(0)?.validators?.lastModified)
        try FileManager.default.removeItem(atPath: destination)
        // A partial of the first decoded bytes, as an interrupted run of an older version
        // (before this fix) left it, with the validator Apache still matches.
        try data.prefix(1_000).write(to: URL(fileURLWithPath: PartFile.path(for: destination)))
        var resume = request
        resume.partial = Validators(lastModified: lastModified)

        let run = FaultRun([resume], attempts: 1)
        #expect(run.outcome() == .downloaded(bytes: Int64(data.count)))
        #expect(contents(destination) == data)
        // Apache answered the range with bytes of its gzip stream; they were not spliced in.
        let requests = apache.requests(count: 3)
        #expect(requests.map(\.status).sorted() == [200, 200, 206])
        #expect(requests.first { $0.status == 206 }?.range == "bytes=1000-")
    }

    @Test func anInterruptedEncodedBodyStartsOverInsteadOfResuming() throws {
        let server = try FaultServer()
        let data = compressibleData(2_000_000)
        let encoded = try gzip(data)
        var cut = FaultResponse.cut(after: encoded.count / 2)
        cut.headers = ["Content-Encoding": "gzip"]
        var whole = FaultResponse.normal
        whole.headers = ["Content-Encoding": "gzip"]
        try server.serve("/cut.pdf", encoded, responses: [cut, whole])
        let destination = folder.appending("cut.pdf")

        let run = FaultRun([TransferRequest(id: 0, url: server.url("/cut.pdf"), destination: destination, expectedSHA256: sha256(data))])
        #expect(run.outcome() == .downloaded(bytes: Int64(data.count)))
        #expect(contents(destination) == data)
        let requests = server.requests(for: "/cut.pdf")
        #expect(requests.count == 2)
        #expect(requests.last?.headers["range"] == nil)
    }

    @Test func aCompressionBombStopsAtTheDecodedSizeCapAndIsNotRetried() throws {
        let server = try FaultServer()
        var bomb = FaultResponse.normal
        bomb.headers = ["Content-Encoding": "gzip"]
        try server.serve("/bomb.pdf", try gzip(Data(count: 50_000_000)), responses: [bomb])
        var options = TransferOptions()
        options.maximumDecodedSize = 1_000_000
        let destination = folder.appending("bomb.pdf")

        let run = FaultRun([TransferRequest(id: 0, url: server.url("/bomb.pdf"), destination: destination)], options: options)
        let failure = try #require(run.failure())
        #expect(failure.code == .badResponse)
        #expect(failure.message.contains("127.0.0.1:\(server.port)") && failure.message.contains("compression bomb"))
        #expect(run.retriedFailures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(!FileManager.default.fileExists(atPath: PartFile.path(for: destination)))
    }

    @Test func anEncodingThatCannotBeDecodedIsRefusedByName() throws {
        let server = try FaultServer()
        var compressed = FaultResponse.normal
        compressed.headers = ["Content-Encoding": "compress"]
        try server.serve("/old.pdf", randomData(10_000), responses: [compressed])
        let destination = folder.appending("old.pdf")

        let run = FaultRun([TransferRequest(id: 0, url: server.url("/old.pdf"), destination: destination)])
        #expect(run.failure() == TransferFailure(
            .badResponse, "the file from 127.0.0.1:\(server.port) is sent in the \"compress\" encoding, which syncagent cannot decode"))
        #expect(run.retriedFailures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination))
    }
}

/// Text-like bytes that gzip shrinks a lot but that do not repeat, so a misplaced range shows.
func compressibleData(_ count: Int) -> Data {
    var data = Data(capacity: count + 16)
    var line = 0
    while data.count < count {
        data.append(contentsOf: "line \(line) of a report that compresses well\n".utf8)
        line += 1
    }
    return data.prefix(count)
}

/// `data` as the `gzip` command compresses it.
func gzip(_ data: Data) throws -> Data {
    let folder = try TemporaryDirectory(prefix: "gzip")
    let input = folder.appending("input")
    try data.write(to: URL(fileURLWithPath: input))
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-k", "-9", input]
    try gzip.run()
    gzip.waitUntilExit()
    return try Data(contentsOf: URL(fileURLWithPath: input + ".gz"))
}

/// The SHA-256 of `data` as lowercase hex.
func sha256(_ data: Data) -> String {
    let hasher = SHA256Hasher()
    data.withUnsafeBytes { hasher.update($0) }
    return hasher.finalize()
}
