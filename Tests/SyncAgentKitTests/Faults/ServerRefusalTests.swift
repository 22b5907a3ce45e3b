import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A server that says "not now": 503 and 429 with `Retry-After` are retried no sooner than
/// asked; 500 without it backs off, longer each time.
@Suite(.serialized)
struct ServerRefusalTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "refusal")
    }

    /// Seconds between consecutive requests for `path`.
    func gaps(_ path: String) -> [Double] {
        let times = server.requests(for: path).map(\.time)
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }

    @Test(arguments: [503, 429])
    func retryAfterIsWaitedOut(status: Int) throws {
        let path = "/busy-\(status).pdf"
        let data = randomData(10_000)
        try server.serve(path, data, responses: [.status(status, retryAfter: "2"), .normal])
        let destination = folder.appending("busy-\(status).pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url(path), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 10_000))
        #expect(contents(destination) == data)
        #expect(run.retriedFailures.map(\.retryAfter) == [.seconds(2)])
        let waited = try #require(gaps(path).first)
        #expect(waited >= 1.95 && waited < 4)
    }

    @Test func retryAfterAsADateIsWaitedOut() throws {
        let data = randomData(1_000)
        let inTwoSeconds = HTTPDate.format(Int64(Date().timeIntervalSince1970) + 2)
        try server.serve("/dated.pdf", data, responses: [.status(503, retryAfter: inTwoSeconds), .normal])
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/dated.pdf"), destination: folder.appending("dated.pdf"))])
        #expect(run.outcome() == .downloaded(bytes: 1_000))
        // The date has whole seconds: between one and two seconds are left when it arrives.
        #expect(try #require(gaps("/dated.pdf").first) >= 0.95)
    }

    @Test func aServerErrorBacksOffLongerEachTime() throws {
        let data = randomData(1_000)
        try server.serve("/broken.pdf", data, responses: [.status(500), .status(500), .normal])
        let destination = folder.appending("broken.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/broken.pdf"), destination: destination)],
                           backoff: .milliseconds(400) ... .seconds(10))

        #expect(run.outcome() == .downloaded(bytes: 1_000))
        #expect(run.retriedFailures.map(\.code) == [.serverError, .serverError])
        // Equal jitter pinned to its lowest: half of 400 ms, then half of 800 ms.
        let waits = gaps("/broken.pdf")
        #expect(waits.count == 2)
        #expect(waits[0] >= 0.195 && waits[1] >= 0.395)
    }

    @Test func aRetryAfterBeyondTheLongestBackoffEndsTheBatchWithTheServersWait() throws {
        try server.serve("/later.pdf", randomData(1_000), responses: [.status(503, retryAfter: "3600")])
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/later.pdf"), destination: folder.appending("later.pdf"))],
                           backoff: .milliseconds(20) ... .seconds(5))
        let failure = try #require(run.failure())
        #expect(failure.code == .serverError)
        #expect(failure.retryAfter == .seconds(3600))
        #expect(server.requests(for: "/later.pdf").count == 1)
        #expect(run.duration < .seconds(2))
    }

    @Test func aPermanentRefusalIsNotRetried() throws {
        try server.serve("/forbidden.pdf", randomData(1_000), responses: [.status(403)])
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/forbidden.pdf"), destination: folder.appending("forbidden.pdf"))])
        #expect(run.failure() == TransferFailure(.httpStatus, "the server answered 403 Forbidden"))
        #expect(server.requests(for: "/forbidden.pdf").count == 1)
    }
}
