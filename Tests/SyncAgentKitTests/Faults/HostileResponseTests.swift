import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Failures name the host or proxy that failed and the real cause, and a cause no retry
/// can mend is not retried.
@Suite(.serialized)
struct HostileResponseTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "hostile")
    }

    func run(_ url: String, options: TransferOptions = TransferOptions()) -> FaultRun {
        FaultRun([TransferRequest(id: 0, url: url, destination: folder.appending("file.pdf"))], attempts: 2, options: options)
    }

    @Test func anUnreachableRedirectTargetIsTheHostNamed() throws {
        let closed = try LocalPort.free()
        try server.serve("/moved.pdf", Data(), responses: [.redirect(to: "http://127.0.0.1:\(closed)/file.pdf")])
        let failure = try #require(run(server.url("/moved.pdf")).failure())
        #expect(failure.code == .network)
        #expect(failure.message.hasPrefix("cannot connect to 127.0.0.1:\(closed) (where 127.0.0.1:\(server.port) redirected)"))
    }

    @Test func aDeadProxyIsTheProxyNamed() throws {
        let closed = try LocalPort.free()
        try server.serve("/via.pdf", randomData(1_000))
        var options = TransferOptions()
        options.proxy = "http://127.0.0.1:\(closed)"
        let failure = try #require(run(server.url("/via.pdf"), options: options).failure())
        #expect(failure.message.hasPrefix("cannot connect to the proxy 127.0.0.1:\(closed) ("))
        #expect(server.requests(for: "/via.pdf").isEmpty)
    }

    @Test func aOneMegabyteHeaderFieldIsRefusedOnce() throws {
        var huge = FaultResponse.normal
        huge.headers = ["X-Padding": String(repeating: "a", count: 1_000_000)]
        try server.serve("/huge.pdf", randomData(1_000), responses: [huge])
        let run = run(server.url("/huge.pdf"))
        #expect(run.failure() == TransferFailure(
            .badResponse, "the response from 127.0.0.1:\(server.port) has a header field larger than the 100 KB accepted"))
        #expect(run.retriedFailures.isEmpty)
    }

    @Test func twentyThousandHeaderFieldsAreRefusedOnce() throws {
        var many = FaultResponse.normal
        many.headers = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("X-Header-\($0)", "some value here") })
        try server.serve("/many.pdf", randomData(1_000), responses: [many])
        let run = run(server.url("/many.pdf"))
        let failure = try #require(run.failure())
        #expect(failure.code == .badResponse)
        #expect(failure.message.hasPrefix("the response header from 127.0.0.1:\(server.port) is larger than the 300 KB accepted"))
        #expect(run.retriedFailures.isEmpty)
    }

    @Test func a206CoveringTheWholeFileIsTheFile() throws {
        let data = randomData(50_000)
        try server.serve("/whole.pdf", data, responses: [.status(206)])
        let run = run(server.url("/whole.pdf"))
        #expect(run.outcome() == .downloaded(bytes: 50_000))
        #expect(contents(folder.appending("file.pdf")) == data)
    }

    @Test func a206WithPartOfTheFileForAWholeFileRequestIsRefusedOnce() throws {
        var part = FaultResponse.status(206)
        part.contentRange = "bytes 0-999/5000"
        try server.serve("/part.pdf", randomData(1_000), responses: [part])
        let run = run(server.url("/part.pdf"))
        #expect(run.failure() == TransferFailure(
            .badResponse, "127.0.0.1:\(server.port) sent part of the file (Content-Range: bytes 0-999/5000) when the whole file was asked for"))
        #expect(run.retriedFailures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("file.pdf")))
    }

    @Test func aTLSHandshakeThatNeverEndsTimesOutAtTheStallTimeout() throws {
        let silent = try SilentListener()
        var options = TransferOptions()
        options.stallTimeout = .seconds(1)
        let run = FaultRun(
            [TransferRequest(id: 0, url: "https://127.0.0.1:\(silent.port)/file.pdf", destination: folder.appending("file.pdf"))],
            attempts: 1, options: options
        )
        #expect(run.failure() == TransferFailure(.timeout, "127.0.0.1:\(silent.port) did not finish the TLS handshake within 1 s"))
        // Not the 30 s connect timeout: a generous bound that a loaded machine still meets.
        #expect(run.duration < .seconds(20))
    }
}
