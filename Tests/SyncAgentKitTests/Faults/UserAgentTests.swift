import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Every request names syncagent in `User-Agent`, exactly once: as a line of the header list
/// where no proxy can be in the way, and through curl's option where one may be (the only way
/// it reaches a proxy's `CONNECT`).
@Suite(.serialized)
struct UserAgentTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "agent")
    }

    @Test func aDirectRequestNamesSyncagentOnce() throws {
        try server.serve("/direct.bin", Data("direct".utf8))
        var options = TransferOptions()
        options.proxy = ""
        let request = TransferRequest(id: 0, url: server.url("/direct.bin"), destination: folder.appending("direct.bin"))
        #expect(FaultRun([request], options: options).outcome() == .downloaded(bytes: 6))

        // A re-check sends its validators beside it.
        let first = try #require(server.requests(for: "/direct.bin").first)
        var recheck = request
        recheck.current = Validators(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
        _ = FaultRun([recheck], attempts: 1, options: options)
        let second = try #require(server.requests(for: "/direct.bin").last)
        #expect([first, second].map { $0.header("User-Agent") } == [TransferOptions().userAgent, TransferOptions().userAgent])
        #expect(second.header("If-Modified-Since") == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(second.header("Cache-Control") == "max-age=0")
    }

    @Test func aRequestThroughAProxyNamesSyncagentOnce() throws {
        // The fault server plays the proxy: it gets the request in absolute form.
        var options = TransferOptions()
        options.proxy = server.url("/")
        let target = "http://127.0.0.1:9/proxied.bin"
        _ = FaultRun([TransferRequest(id: 0, url: target, destination: folder.appending("proxied.bin"))], attempts: 1, options: options)
        let seen = server.requests().filter { $0.path == target }
        #expect(seen.map { $0.header("User-Agent") } == [TransferOptions().userAgent])
    }
}
