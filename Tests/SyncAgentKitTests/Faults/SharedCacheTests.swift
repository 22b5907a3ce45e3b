import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A re-check through a shared cache asks the origin: a copy the cache still holds fresh
/// never hides a change, and an unchanged file still costs the origin only a 304.
@Suite(.serialized)
struct SharedCacheTests {
    @Test func aRecheckThroughSquidSeesTheOriginsChangeAndStillSavesUnchangedBytes() throws {
        let origin = try NginxServer()
        let squid = try SquidProxy()
        let folder = try TemporaryDirectory(prefix: "cache")
        let destination = folder.appending("a.pdf")
        var options = TransferOptions()
        options.proxy = squid.url
        try origin.serve("a.pdf", randomData(100_000))
        let request = TransferRequest(id: 0, url: origin.url("a.pdf"), destination: destination)

        let first = FaultRun([request], attempts: 1, options: options)
        #expect(first.outcome() == .downloaded(bytes: 100_000))
        let changed = randomData(120_000)
        try origin.serve("a.pdf", changed)

        var recheck = request
        recheck.current = try #require(first.recorder.completion(0)?.validators)
        let second = FaultRun([recheck], attempts: 1, options: options)
        #expect(second.outcome() == .downloaded(bytes: 120_000))
        #expect(contents(destination) == changed)

        recheck.current = try #require(second.recorder.completion(0)?.validators)
        let third = FaultRun([recheck], attempts: 1, options: options)
        #expect(third.outcome() == .unchanged)
        // Every request went through squid, which asked the origin; the origin answered the
        // last one 304, so no body came from it again.
        #expect(squid.requests(count: 3).map(\.url) == Array(repeating: origin.url("a.pdf"), count: 3))
        #expect(origin.requests(for: "/a.pdf", count: 3).map(\.status) == [200, 200, 304])
    }
}
