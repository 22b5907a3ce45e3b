import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A partial is continued only when the server proves it continues the same version at the
/// same place; otherwise the download starts over from zero. Never a file of two versions.
@Suite(.serialized)
struct ResumeValidationTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "resume")
    }

    @Test func aChangedValidatorRestartsFromZeroByteIdentical() throws {
        let old = randomData(600_000)
        let new = randomData(700_000)
        try server.serve("/changed.pdf", old, etag: "\"v1\"", responses: [.cut(after: 250_000), .changed(to: new, etag: "\"v2\"")])
        let destination = folder.appending("changed.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/changed.pdf"), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 700_000))
        #expect(contents(destination) == new)
        #expect(run.recorder.completion(0)?.validators?.etag == "\"v2\"")
        let requests = server.requests(for: "/changed.pdf")
        #expect(requests.count == 2)
        #expect(requests[1].header("If-Range") == "\"v1\"" && requests[1].status == 200)
    }

    @Test func aRangeAnsweredForAnotherVersionRestartsFromZero() throws {
        // A server that honours Range but not If-Range: its 206 carries the new ETag.
        let old = randomData(600_000)
        let new = randomData(600_000)
        var careless = FaultResponse.changed(to: new, etag: "\"v2\"")
        careless.ignoreIfRange = true
        try server.serve("/careless.pdf", old, etag: "\"v1\"", responses: [.cut(after: 250_000), careless])
        let destination = folder.appending("careless.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/careless.pdf"), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 600_000))
        #expect(contents(destination) == new)
        let requests = server.requests(for: "/careless.pdf")
        #expect(requests.map(\.status) == [200, 206, 200])
        #expect(requests.last?.header("Range") == nil)
    }

    @Test func aServerThatIgnoresRangeHasTheFileRewrittenFromZero() throws {
        let data = randomData(800_000)
        try server.serve("/norange.pdf", data, responses: [.cut(after: 300_000), .ignoringRange])
        let destination = folder.appending("norange.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/norange.pdf"), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 800_000))
        #expect(contents(destination) == data)
        let requests = server.requests(for: "/norange.pdf")
        #expect(requests.map(\.status) == [200, 200])
        #expect(rangeStart(requests[1]) != nil)
    }

    @Test(arguments: [
        "bytes 0-799999/800000",          // from the start, not where asked
        "bytes 300001-799999/800000",     // past where asked
        "bytes 300000-799999/900000",     // the whole file would be longer than the range says
        "bytes 300000-700000/800000",     // ends before the end
        "bytes 300000-799999/*",          // length unknown, and then not what was sent
        "bytes */800000",
        "items 300000-799999/800000",
        "garbage",
    ])
    func aWrongContentRangeIsNotTrusted(contentRange: String) throws {
        let data = randomData(800_000)
        let path = "/range-\(abs(contentRange.hashValue)).pdf"
        // The cut falls exactly where the header claims to continue, so only a check of
        // the header itself can tell.
        var wrong = FaultResponse.contentRange(contentRange)
        wrong.contentLength = 500_000
        try server.serve(path, data, responses: [.cut(after: 300_000), wrong, .normal])
        let destination = folder.appending("range.pdf")
        try? FileManager.default.removeItem(atPath: destination)
        let run = FaultRun([TransferRequest(id: 0, url: server.url(path), destination: destination)])

        if case .downloaded = run.outcome() {
            #expect(contents(destination) == data)
        } else {
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
    }

    @Test func aPartialLongerThanTheFileStartsOver() throws {
        let data = randomData(100_000)
        try server.serve("/shrunk.pdf", data, etag: "\"same\"")
        let destination = folder.appending("shrunk.pdf")
        try randomData(150_000).write(to: URL(fileURLWithPath: partialPath(destination)))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/shrunk.pdf"), destination: destination, partial: Validators(etag: "\"same\""))])
        #expect(run.outcome() == .downloaded(bytes: 100_000))
        #expect(contents(destination) == data)
        #expect(server.requests(for: "/shrunk.pdf").map(\.status) == [416, 200])
    }

    @Test func aRefusalWhileResumingKeepsThePartialForTheNextAttempt() throws {
        let data = randomData(600_000)
        try server.serve("/refused.pdf", data, etag: "\"r1\"", responses: [.cut(after: 200_000), .status(503, retryAfter: "0"), .normal])
        let destination = folder.appending("refused.pdf")
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/refused.pdf"), destination: destination)])

        #expect(run.outcome() == .downloaded(bytes: 600_000))
        #expect(contents(destination) == data)
        let requests = server.requests(for: "/refused.pdf")
        #expect(requests.map(\.status) == [200, 503, 206])
        #expect(rangeStart(requests[1]) == 200_000 && rangeStart(requests[2]) == 200_000)
    }

    /// A restart from zero deletes the partial it will not continue, so its next attempt
    /// need not look for one: here the request says a listing of the folder found none
    /// (``TransferRequest/noPartialOnDisk``, set before the partial appeared) and the next
    /// attempt finds the file unchanged.
    @Test func aRestartFromZeroLeavesNoPartialBehind() throws {
        let old = randomData(300_000)
        let new = randomData(300_000)
        var careless = FaultResponse.changed(to: new, etag: "\"v2\"")
        careless.ignoreIfRange = true
        try server.serve("/restarted.pdf", old, etag: "\"v1\"", responses: [careless])
        let destination = folder.appending("restarted.pdf")
        try new.write(to: URL(fileURLWithPath: destination))
        try old.prefix(100_000).write(to: URL(fileURLWithPath: partialPath(destination)))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/restarted.pdf"), destination: destination,
                                            current: Validators(etag: "\"v2\""), partial: Validators(etag: "\"v1\""), noPartialOnDisk: true)])

        #expect(run.outcome() == .unchanged)
        #expect(server.requests(for: "/restarted.pdf").map(\.status) == [206, 304])
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
    }

    @Test func aPartialNobodyWillContinueIsDeleted() throws {
        let destination = folder.appending("gone.pdf")
        try randomData(5_000).write(to: URL(fileURLWithPath: partialPath(destination)))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/gone.pdf"), destination: destination, partial: Validators(etag: "\"g1\""))])
        #expect(run.failure()?.code == .notFound)
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
    }

    @Test func anUnchangedFileLeavesNoStalePartial() throws {
        let data = randomData(5_000)
        try server.serve("/same.pdf", data, etag: "\"same\"")
        let destination = folder.appending("same.pdf")
        try data.write(to: URL(fileURLWithPath: destination))
        try randomData(1_000).write(to: URL(fileURLWithPath: partialPath(destination)))
        let run = FaultRun([TransferRequest(id: 0, url: server.url("/same.pdf"), destination: destination, current: Validators(etag: "\"same\""))])
        #expect(run.outcome() == .unchanged)
        #expect(!FileManager.default.fileExists(atPath: partialPath(destination)))
    }
}
