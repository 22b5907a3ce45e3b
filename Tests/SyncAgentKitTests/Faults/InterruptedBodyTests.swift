import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Bodies that do not arrive whole: a reset connection, a short body, a stall. Each is
/// retried, continued with `Range` where it can be, and never put in place half-done.
@Suite(.serialized)
struct InterruptedBodyTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "interrupted")
    }

    @Test func aConnectionCutMidBodyIsResumedWithRangeByteIdentical() throws {
        let data = randomData(900_000)
        try server.serve("/cut.pdf", data, etag: "\"v1\"", responses: [.cut(after: 300_000), .normal])
        let destination = folder.appending("cut.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/cut.pdf"), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 900_000))
        #expect(contents(destination) == data)
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
        #expect(run.retriedFailures.map(\.code.isTransient) == [true])
        let requests = server.requests(for: "/cut.pdf")
        #expect(requests.map(\.status) == [200, 206])
        let resumedAt = try #require(rangeStart(requests[1]))
        #expect(resumedAt > 0 && resumedAt <= 300_000)
        #expect(requests[1].header("If-Range") == "\"v1\"")
    }

    @Test func aShortBodyIsNotPutInPlaceAndIsRetried() throws {
        let data = randomData(500_000)
        try server.serve("/short.pdf", data, etag: "\"s1\"", responses: [.short(sending: 200_000), .normal])
        let destination = folder.appending("short.pdf")
        try Data("old version".utf8).write(to: URL(fileURLWithPath: destination))

        let first = FaultRun([TransferRequest(id: 0, url: server.url("/short.pdf"), destination: destination)], attempts: 1)
        #expect(first.failure()?.code == .truncated)
        #expect(contents(destination) == Data("old version".utf8))
        let partial = try #require(first.recorder.completion(0)?.partial)
        #expect(partial.etag == "\"s1\"")

        let second = FaultRun([TransferRequest(id: 0, url: server.url("/short.pdf"), destination: destination, partial: partial)], attempts: 1)
        #expect(second.outcome() == .downloaded(bytes: 500_000))
        #expect(contents(destination) == data)
        #expect(server.requests(for: "/short.pdf").last?.header("Range") == "bytes=200000-")
    }

    @Test func aShortBodyIsRetriedWithinOneRun() throws {
        let data = randomData(300_000)
        try server.serve("/short-twice.pdf", data, responses: [.short(sending: 1_000), .short(sending: 150_000), .normal])
        let destination = folder.appending("short-twice.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/short-twice.pdf"), destination: destination)], attempts: 3)
        #expect(run.outcome() == .downloaded(bytes: 300_000))
        #expect(contents(destination) == data)
        #expect(run.retriedFailures.map(\.code) == [.truncated, .truncated])
        #expect(server.requests(for: "/short-twice.pdf").map(\.status) == [200, 206, 206])
    }

    @Test func aStalledBodyTimesOutAndIsRetried() throws {
        let data = randomData(400_000)
        try server.serve("/stall.pdf", data, responses: [.stall(after: 100_000, for: .seconds(30)), .normal])
        let destination = folder.appending("stall.pdf")
        var options = TransferOptions()
        options.stallTimeout = .seconds(1)
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/stall.pdf"), destination: destination)], options: options)

        #expect(run.outcome() == .downloaded(bytes: 400_000))
        #expect(contents(destination) == data)
        #expect(run.retriedFailures.map(\.code) == [.timeout])
        #expect(run.duration >= .seconds(1) && run.duration < .seconds(10))
        #expect(rangeStart(try #require(server.requests(for: "/stall.pdf").last)) == 100_000)
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        var silent = FaultResponse()
        silent.delayHeaders = .seconds(30)
        try server.serve("/silent.pdf", randomData(1_000), responses: [silent])
        var options = TransferOptions()
        options.stallTimeout = .seconds(1)
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/silent.pdf"), destination: folder.appending("silent.pdf"))], attempts: 1, options: options)
        #expect(run.failure()?.code == .timeout)
        #expect(run.duration < .seconds(10))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("silent.pdf")))
    }
}
