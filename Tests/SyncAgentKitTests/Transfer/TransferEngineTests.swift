import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// The engine against a real nginx on 127.0.0.1.
@Suite(.serialized)
struct TransferEngineTests {
    let server: NginxServer
    let folder: TemporaryDirectory

    init() throws {
        server = try NginxServer(locations: """
            location = /soft404.pdf { types { } default_type text/html; return 200 "<html><body>Moved</body></html>"; }
            location = /busy.pdf { add_header Retry-After 1 always; return 503; }
            location /slow/ { limit_rate 50k; }
            """)
        folder = try TemporaryDirectory(prefix: "engine")
    }

    /// Runs the engine and collects what it reported.
    func run(
        _ requests: [TransferRequest], retry: Manifest.RetryPolicy = Manifest.RetryPolicy(attempts: 1),
        limits: Manifest.Limits = Manifest.Limits(concurrent: 4, perHost: 4)
    ) -> Recorder {
        let recorder = Recorder()
        let engine = TransferEngine(limits: limits, retry: retry, unitRandom: { 0 }) {
            recorder.events.append($0)
        }
        engine.run(requests)
        return recorder
    }

    @Test func downloadsFilesOfManySizesAtOnceByteIdentical() throws {
        let sizes = [1_000, 700_000, 2_000_000, 5_000_000, 12_000_000, 30_000_000]
        var expected: [Int: Data] = [:]
        var requests: [TransferRequest] = []
        for (index, size) in sizes.enumerated() {
            let data = randomData(size)
            try server.serve("files/\(index).bin", data)
            expected[index] = data
            requests.append(TransferRequest(id: index, url: server.url("files/\(index).bin"), destination: folder.appending("out/\(index).bin")))
        }
        let recorder = run(requests)
        for (index, data) in expected {
            #expect(recorder.outcome(index) == .downloaded(bytes: Int64(data.count)))
            #expect(FileManager.default.contents(atPath: folder.appending("out/\(index).bin")) == data)
            #expect(!FileManager.default.fileExists(atPath: folder.appending("out/.\(index).bin.part")))
        }
    }

    /// What a resume would send back is told for a partial that has a name; a small new file
    /// received with none cannot be continued, and is told no version to continue with.
    @Test func onlyAPartialWithANameIsToldTheVersionToResumeWith() throws {
        try server.serve("small.bin", randomData(1_000))
        try server.serve("big.bin", randomData(700_000))
        let recorder = run([
            TransferRequest(id: 0, url: server.url("small.bin"), destination: folder.appending("small.bin")),
            TransferRequest(id: 1, url: server.url("big.bin"), destination: folder.appending("big.bin")),
        ])
        func version(_ id: Int) -> Validators? {
            recorder.events.lazy.compactMap { event -> Validators? in
                if case .receiving(id, let validators, _, _) = event { validators } else { nil }
            }.first
        }
        #expect(recorder.outcome(0) == .downloaded(bytes: 1_000) && recorder.outcome(1) == .downloaded(bytes: 700_000))
        #expect(version(1)?.ifRange != nil, "nginx's ETag")
        // Files are received with no name where /proc lets them be named at the end (PartFile).
        if access("/proc/self/fd", X_OK) == 0 { #expect(version(0) == Validators()) }
    }

    /// A download that is whole when it is cancelled is done, not cancelled: it is in place and
    /// reported by the time `cancel` returns, so that what the caller does next (`reset`
    /// deleting the manifest's files) comes after it. While another transfer runs, a whole
    /// file waits up to a tenth of a second for others to join its group: the cancel comes then.
    @Test func cancellingADownloadAlreadyWholePutsItInPlaceBeforeReturning() throws {
        let whole = randomData(1_000)
        try server.serve("whole.bin", whole)
        try server.serve("slow/long.bin", randomData(500_000))
        let recorder = Recorder()
        let engine = TransferEngine(limits: Manifest.Limits(concurrent: 2, perHost: 2), retry: Manifest.RetryPolicy(attempts: 1)) {
            recorder.events.append($0)
        }
        engine.add([
            TransferRequest(id: 0, url: server.url("slow/long.bin"), destination: folder.appending("long.bin")),
            TransferRequest(id: 1, url: server.url("whole.bin"), destination: folder.appending("whole.bin")),
        ])
        func receiving(_ id: Int) -> Bool {
            recorder.events.contains { if case .receiving(id, _, _, _) = $0 { true } else { false } }
        }
        while !receiving(1) { engine.step(until: .now + .milliseconds(10)) }
        // The thousand bytes come in the packet with the head: one more turn takes them.
        engine.step(until: .now + .milliseconds(20))
        #expect(recorder.completion(1) == nil, "still waiting for others to join its group")

        #expect(!engine.cancel(id: 1, keepPartial: false), "a whole download is not cancelled")
        #expect(recorder.outcome(1) == .downloaded(bytes: 1_000))
        #expect(FileManager.default.contents(atPath: folder.appending("whole.bin")) == whole)
        #expect(!engine.pendingIDs.contains(1))
        #expect(engine.cancel(id: 0, keepPartial: false))
        #expect(engine.isIdle)
    }

    /// Until a download's response begins, another writer may not take it for alone (see
    /// ``DirectIOBlocks``): it counts as awaiting its head from its start until its body
    /// begins, it fails, or it is cancelled — whether its file is written directly or not.
    @Test func aDownloadAwaitsItsHeadUntilItsResponseBeginsOrItEnds() throws {
        let silent = try SilentListener()
        try server.serve("headed.bin", randomData(3_000_000))
        let recorder = Recorder()
        let engine = TransferEngine(limits: Manifest.Limits(concurrent: 4, perHost: 4), retry: Manifest.RetryPolicy(attempts: 1)) {
            recorder.events.append($0)
        }
        engine.add([TransferRequest(id: 0, url: "http://127.0.0.1:\(silent.port)/never.bin", destination: folder.appending("never.bin"))])
        engine.step(until: .now + .milliseconds(10))
        #expect(engine.blocks.awaitingHeads == 1)
        engine.add([
            TransferRequest(id: 1, url: server.url("headed.bin"), destination: folder.appending("headed.bin")),
            TransferRequest(id: 2, url: server.url("missing.bin"), destination: folder.appending("missing.bin")),
        ])
        let deadline = ContinuousClock.now + .seconds(20)
        while (recorder.completion(1) == nil || recorder.completion(2) == nil) && .now < deadline {
            engine.step(until: .now + .milliseconds(10))
        }
        #expect(recorder.outcome(1) == .downloaded(bytes: 3_000_000))
        #expect(recorder.completion(2) != nil)
        #expect(engine.blocks.awaitingHeads == 1, "only the download nobody answers")
        #expect(engine.cancel(id: 0, keepPartial: false))
        #expect(engine.blocks.awaitingHeads == 0)
    }

    @Test func secondRunIsAllNotModifiedAndRewritesNothing() throws {
        try server.serve("a.pdf", randomData(50_000))
        try server.serve("b.pdf", randomData(70_000))
        let requests = ["a.pdf", "b.pdf"].enumerated().map { TransferRequest(id: $0, url: server.url($1), destination: folder.appending($1)) }
        let first = run(requests)
        let inodes = try requests.map { try FileManager.default.attributesOfItem(atPath: $0.destination)[.systemFileNumber] as? Int }

        let again = requests.map { request in
            var request = request
            request.current = first.completion(request.id)!.validators!
            return request
        }
        let second = run(again)
        #expect(second.outcome(0) == .unchanged && second.outcome(1) == .unchanged)
        #expect(try requests.map { try FileManager.default.attributesOfItem(atPath: $0.destination)[.systemFileNumber] as? Int } == inodes)
        let log = server.requests(for: "/a.pdf", count: 2)
        #expect(log.map(\.status) == [200, 304])
        #expect(log[1].ifNoneMatch == first.completion(0)!.validators!.etag)
    }

    @Test func finishedFileCarriesTheServersModificationTime() throws {
        try server.serve("dated.pdf", randomData(10))
        let recorder = run([TransferRequest(id: 0, url: server.url("dated.pdf"), destination: folder.appending("dated.pdf"))])
        let lastModified = try #require(recorder.completion(0)?.validators?.lastModified)
        let mtime = try FileManager.default.attributesOfItem(atPath: folder.appending("dated.pdf"))[.modificationDate] as? Date
        #expect(mtime.map { Int64($0.timeIntervalSince1970) } == HTTPDate.parse(lastModified))
    }

    @Test func continuesAPartialWithRangeAndIfRange() throws {
        let data = randomData(3_000_000)
        try server.serve("big.pdf", data)
        let destination = folder.appending("big.pdf")
        let validators = try #require(run([TransferRequest(id: 0, url: server.url("big.pdf"), destination: destination)]).completion(0)?.validators)
        try FileManager.default.removeItem(atPath: destination)
        try data.prefix(1_234_567).write(to: URL(fileURLWithPath: folder.appending(".big.pdf.part")))

        let recorder = run([TransferRequest(id: 0, url: server.url("big.pdf"), destination: destination, partial: validators)])
        #expect(recorder.events.contains(.started(id: 0, offset: 1_234_567)))
        #expect(FileManager.default.contents(atPath: destination) == data)
        let resumed = try #require(server.requests(for: "/big.pdf", count: 2).last)
        #expect(resumed.status == 206 && resumed.range == "bytes=1234567-" && resumed.ifRange == validators.etag)
        #expect(resumed.bytesSent == data.count - 1_234_567)
    }

    @Test func aChangedValidatorRestartsFromZero() throws {
        let data = randomData(500_000)
        try server.serve("changed.pdf", data)
        try Data(repeating: 0xAA, count: 200_000).write(to: URL(fileURLWithPath: folder.appending(".changed.pdf.part")))
        let stale = Validators(etag: "\"0-stale\"")
        let recorder = run([TransferRequest(id: 0, url: server.url("changed.pdf"), destination: folder.appending("changed.pdf"), partial: stale)])
        #expect(recorder.outcome(0) == .downloaded(bytes: 500_000))
        #expect(FileManager.default.contents(atPath: folder.appending("changed.pdf")) == data)
        #expect(server.requests(for: "/changed.pdf", count: 1).map(\.status) == [200])
    }

    @Test func aMissingFileFailsBesideGoodOnesAndLeavesNothing() throws {
        try server.serve("good.pdf", randomData(1_000))
        let recorder = run([
            TransferRequest(id: 0, url: server.url("good.pdf"), destination: folder.appending("good.pdf")),
            TransferRequest(id: 1, url: server.url("gone.pdf"), destination: folder.appending("gone.pdf")),
        ])
        #expect(recorder.outcome(0) == .downloaded(bytes: 1_000))
        #expect(recorder.outcome(1) == .failed(TransferFailure(.notFound, "the server answered 404 Not Found")))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("gone.pdf")))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(".gone.pdf.part")))
    }

    @Test func aChecksumMismatchLeavesNoFileAndKeepsTheOldOne() throws {
        try server.serve("sum.pdf", Data("new contents".utf8))
        let destination = folder.appending("sum.pdf")
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: destination))
        let wrong = String(repeating: "0", count: 64)
        let recorder = run([TransferRequest(id: 0, url: server.url("sum.pdf"), destination: destination, expectedSHA256: wrong)])
        guard case .failed(let failure) = recorder.outcome(0) else { Issue.record("expected a failure"); return }
        #expect(failure.code == .checksumMismatch)
        #expect(failure.message.contains(wrong))
        #expect(FileManager.default.contents(atPath: destination) == Data("old contents".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(".sum.pdf.part")))
    }

    @Test func aMatchingChecksumIsAccepted() throws {
        try server.serve("ok.txt", Data("hello\n".utf8))
        let sha = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
        let recorder = run([TransferRequest(id: 0, url: server.url("ok.txt"), destination: folder.appending("ok.txt"), expectedSHA256: sha)])
        #expect(recorder.outcome(0) == .downloaded(bytes: 6))
    }

    @Test func aWebPageInsteadOfAPDFIsRefusedAndTheOldVersionKept() throws {
        let destination = folder.appending("soft404.pdf")
        try Data("%PDF old".utf8).write(to: URL(fileURLWithPath: destination))
        let recorder = run([TransferRequest(id: 0, url: server.url("soft404.pdf"), destination: destination)])
        #expect(recorder.outcome(0) == .failed(TransferFailure(.webPageInsteadOfFile, "the server sent a web page instead of the file")))
        #expect(FileManager.default.contents(atPath: destination) == Data("%PDF old".utf8))
    }

    @Test func aBusyServerIsRetriedAfterItsRetryAfter() throws {
        let started = ContinuousClock.now
        let recorder = run([TransferRequest(id: 0, url: server.url("busy.pdf"), destination: folder.appending("busy.pdf"))],
                           retry: Manifest.RetryPolicy(attempts: 2, initialBackoff: .milliseconds(10), maximumBackoff: .seconds(5)))
        #expect(recorder.events.contains(.willRetry(id: 0, delay: .seconds(1),
            failure: TransferFailure(.serverError, "the server answered 503 Service Temporarily Unavailable", retryAfter: .seconds(1)))))
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(server.requests(for: "/busy.pdf", count: 2).count == 2)
        guard case .failed(let failure) = recorder.outcome(0) else { Issue.record("expected a failure"); return }
        #expect(failure.code == .serverError)
    }

    @Test func anEmptyFileIsStillAFile() throws {
        try server.serve("empty.txt", Data())
        let recorder = run([TransferRequest(id: 0, url: server.url("empty.txt"), destination: folder.appending("sub/empty.txt"))])
        #expect(recorder.outcome(0) == .downloaded(bytes: 0))
        #expect(FileManager.default.contents(atPath: folder.appending("sub/empty.txt")) == Data())
    }

    @Test func aRefusedConnectionIsANetworkFailure() throws {
        let recorder = run([TransferRequest(id: 0, url: "http://127.0.0.1:9/x.pdf", destination: folder.appending("x.pdf"))])
        guard case .failed(let failure) = recorder.outcome(0) else { Issue.record("expected a failure"); return }
        #expect(failure.code == .network)
        #expect(failure.message.hasPrefix("cannot connect to 127.0.0.1:9"))
    }

    /// One transfer at a time, so each runs on the handle the one before it used: handles
    /// of successful transfers are reused; a failure's handle is not.
    @Test func transfersOnReusedHandlesSendTheirOwnRequests() throws {
        try server.serve("one.pdf", randomData(10_000))
        try server.serve("two.pdf", randomData(20_000))
        let first = run([TransferRequest(id: 0, url: server.url("one.pdf"), destination: folder.appending("one.pdf"))])
        let names = ["one.pdf", "two.pdf", "missing.pdf", "two.pdf", "one.pdf"]
        var requests = names.enumerated().map { TransferRequest(id: $0, url: server.url($1), destination: folder.appending("again/\($0)-\($1)")) }
        // A conditional request, then plain ones: no header may leak from one to the next.
        requests[0].destination = folder.appending("one.pdf")
        requests[0].current = first.completion(0)!.validators!
        requests.insert(TransferRequest(id: 5, url: "http://127.0.0.1:9/refused.pdf", destination: folder.appending("refused.pdf")), at: 3)
        let recorder = run(requests, limits: Manifest.Limits(concurrent: 1, perHost: 1))
        #expect(recorder.outcome(0) == .unchanged)
        #expect(recorder.outcome(1) == .downloaded(bytes: 20_000))
        guard case .failed = recorder.outcome(2) else { Issue.record("a missing file must fail"); return }
        guard case .failed = recorder.outcome(5) else { Issue.record("a refused connection must fail"); return }
        #expect(recorder.outcome(3) == .downloaded(bytes: 20_000))
        #expect(recorder.outcome(4) == .downloaded(bytes: 10_000))
        #expect(FileManager.default.contents(atPath: folder.appending("again/4-one.pdf")) == FileManager.default.contents(atPath: folder.appending("one.pdf")))
    }
}

/// Collects engine events.
final class Recorder {
    var events: [TransferEvent] = []

    func completion(_ id: Int) -> TransferCompletion? {
        for case .finished(id, let completion) in events { return completion }
        return nil
    }

    func outcome(_ id: Int) -> TransferOutcome? { completion(id)?.outcome }
}

/// Bytes that do not compress or repeat, so a wrong offset cannot go unnoticed.
func randomData(_ count: Int) -> Data {
    FileHandle(forReadingAtPath: "/dev/urandom")!.readData(ofLength: count)
}
