import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Redirects: chains are followed, loops end, and no redirect leaves http and https.
@Suite(.serialized)
struct RedirectTests {
    let server: FaultServer
    let folder: TemporaryDirectory

    init() throws {
        server = try FaultServer()
        folder = try TemporaryDirectory(prefix: "redirect")
    }

    func run(_ path: String) -> FaultRun {
        FaultRun([TransferRequest(id: 0, url: server.url(path), destination: folder.appending("file.pdf"))])
    }

    @Test func aChainOfRedirectsIsFollowed() throws {
        let data = randomData(5_000)
        try server.serve("/one.pdf", Data(), responses: [.redirect(to: "/two.pdf", status: 301)])
        try server.serve("/two.pdf", Data(), responses: [.redirect(to: server.url("/three.pdf"), status: 307)])
        try server.serve("/three.pdf", data)
        let run = run("/one.pdf")
        #expect(run.outcome() == .downloaded(bytes: 5_000))
        #expect(contents(folder.appending("file.pdf")) == data)
    }

    @Test func aRedirectLoopStopsAfterABoundedNumber() throws {
        try server.serve("/loop.pdf", Data(), responses: [.redirect(to: "/loop.pdf")])
        let run = run("/loop.pdf")
        #expect(run.failure() == TransferFailure(.redirect, "the server redirected too many times"))
        #expect(server.requests(for: "/loop.pdf").count == TransferOptions().maximumRedirects + 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("file.pdf")))
    }

    @Test func aLongLoopBetweenTwoPathsStopsToo() throws {
        try server.serve("/ping.pdf", Data(), responses: [.redirect(to: "/pong.pdf")])
        try server.serve("/pong.pdf", Data(), responses: [.redirect(to: "/ping.pdf")])
        #expect(run("/ping.pdf").failure()?.code == .redirect)
        #expect(server.requests().count <= TransferOptions().maximumRedirects + 1)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/file.pdf", "gopher://127.0.0.1/file.pdf"])
    func aRedirectToAnotherSchemeIsRefused(location: String) throws {
        let path = "/elsewhere-\(abs(location.hashValue)).pdf"
        try server.serve(path, Data(), responses: [.redirect(to: location)])
        let run = run(path)
        let failure = try #require(run.failure())
        #expect(failure.code == .redirect)
        #expect(failure.message == "the server redirected to an address that is not http or https")
        #expect(run.retriedFailures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("file.pdf")))
    }
}
