import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Issue 11, item 3: a response whose length cannot be trusted is never a file, a server
/// that sends more than it announced does not spoil the next transfer on its connection, and
/// a body that never ends stops at `max_size` or before its disk is full.
@Suite(.serialized)
struct LengthFramingTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "framing")
    }

    func request(_ path: String, id: Int = 0, maximumSize: Int64 = Manifest.Limits.defaultMaxSize) -> TransferRequest {
        TransferRequest(id: id, url: server.url(path), destination: folder.appending(String(path.dropFirst())), maximumSize: maximumSize)
    }

    @Test func twoDifferentContentLengthsFailAndPutNothingInPlace() throws {
        var twoLengths = FaultResponse()
        twoLengths.extraHeaderLines = ["Content-Length: 2000"]
        try server.serve("/two.pdf", randomData(100), responses: [twoLengths])
        let run = FaultRun([request("/two.pdf")])

        let failure = try #require(run.failure())
        #expect(failure == TransferFailure(.badFraming, "the server at 127.0.0.1:\(server.port) sent contradictory lengths for one response (Content-Length: 100 and 2000)"))
        #expect(run.retriedFailures.isEmpty, "a server that contradicts itself does so again")
        #expect(contents(folder.appending("two.pdf")) == nil)
        #expect(!FileManager.default.fileExists(atPath: partialPath(folder.appending("two.pdf"))))
    }

    @Test func aRepeatedEqualContentLengthIsFine() throws {
        let data = randomData(100)
        var repeated = FaultResponse()
        repeated.extraHeaderLines = ["Content-Length: 100"]
        try server.serve("/same.pdf", data, responses: [repeated])
        #expect(FaultRun([request("/same.pdf")]).outcome() == .downloaded(bytes: 100))
        #expect(contents(folder.appending("same.pdf")) == data)
    }

    /// The 200 KB beyond the first response's length, read by the next request on the same
    /// connection as its status line, made that request fail with "Out of memory" (curl's
    /// 100 KB limit on a header line). The first response is what its length framed.
    @Test func bytesBeyondTheLengthDoNotSpoilTheNextTransferOnTheConnection() throws {
        var overrun = FaultResponse()
        overrun.excessBytes = 200_000
        let first = randomData(1_000)
        try server.serve("/overrun.pdf", first, responses: [overrun])
        let next = randomData(5_000)
        try server.serve("/next.pdf", next)
        let run = FaultRun([request("/overrun.pdf", id: 0), request("/next.pdf", id: 1)], attempts: 1,
                           limits: Manifest.Limits(concurrent: 1, perHost: 1))

        #expect(run.outcome(0) == .downloaded(bytes: 1_000))
        #expect(contents(folder.appending("overrun.pdf")) == first)
        #expect(run.outcome(1) == .downloaded(bytes: 5_000))
        #expect(contents(folder.appending("next.pdf")) == next)
    }

    /// Stray bytes that come only when the next request is on its way cannot be seen in time:
    /// that request fails on them, and goes again at once on a new connection.
    @Test func bytesBeyondTheLengthThatComeLateCostTheNextTransferOnlyANewConnection() throws {
        var overrun = FaultResponse()
        overrun.lateExcessBytes = 200_000
        let first = randomData(1_000)
        try server.serve("/late.pdf", first, responses: [overrun])
        let next = randomData(5_000)
        try server.serve("/after.pdf", next)
        let run = FaultRun([request("/late.pdf", id: 0), request("/after.pdf", id: 1)], attempts: 1,
                           limits: Manifest.Limits(concurrent: 1, perHost: 1))

        #expect(run.outcome(0) == .downloaded(bytes: 1_000))
        #expect(run.outcome(1) == .downloaded(bytes: 5_000))
        #expect(contents(folder.appending("after.pdf")) == next)
        #expect(server.requests(for: "/after.pdf").count == 2, "the second on a new connection")
    }

    @Test func aBodyWithoutLengthThatNeverEndsStopsAtMaxSize() throws {
        var endless = FaultResponse()
        endless.endless = true
        try server.serve("/stream.iso", Data(), responses: [endless])
        let run = FaultRun([request("/stream.iso", maximumSize: 3_000_000)])

        let failure = try #require(run.failure())
        #expect(failure == TransferFailure(.tooLarge, "the server at 127.0.0.1:\(server.port) sent more than the 3.0 MB that max_size allows without ending the file; raise `max_size` if the file really is that large"))
        #expect(run.retriedFailures.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "neither the file nor its partial")
    }

    @Test func anAnnouncedLengthAboveMaxSizeIsRefusedBeforeTheBody() throws {
        try server.serve("/big.iso", randomData(20_000))
        let run = FaultRun([request("/big.iso", maximumSize: 10_000)])

        #expect(run.failure() == TransferFailure(.tooLarge, "the file at 127.0.0.1:\(server.port) is 20.0 KB, more than the 10.0 KB that max_size allows; raise `max_size` to download it"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: ScratchMount.unavailableReason)))
    func aBodyThatNeverEndsStopsBeforeTheDiskIsFull() throws {
        let disk = try ScratchMount(bytes: 8 << 20)
        var endless = FaultResponse()
        endless.endless = true
        try server.serve("/stream.bin", Data(), responses: [endless])
        let destination = disk.appending("stream.bin")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/stream.bin"), destination: destination)])

        let failure = try #require(run.failure())
        #expect(failure.code == .disk)
        #expect(failure.message.hasPrefix("stopped writing \(destination) after "))
        #expect(failure.message.hasSuffix("free, and syncagent leaves at least 419 KB free (`limits.min_free`)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
