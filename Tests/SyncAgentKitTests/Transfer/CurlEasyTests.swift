import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// A handle against a real nginx on 127.0.0.1, reused as the engine reuses it: each transfer
/// gets the options it asks for, whatever the last one asked.
@Suite(.serialized)
struct CurlEasyTests {
    let server: NginxServer

    init() throws {
        server = try NginxServer()
        try server.serve("one.pdf", Data(repeating: 7, count: 1_000))
    }

    @Test func aReusedHandleTakesTheOptionsOfItsNextTransfer() throws {
        let easy = CurlEasy()
        let multi = CurlMulti()
        let sink = Sink()
        func transfer(protocols: String, proxy: String, userAgent: String?) throws -> CurlError? {
            easy.delegate = sink
            try easy.url(server.url("one.pdf"))
            try easy.allowedProtocols(protocols)
            try easy.proxy(proxy)
            if let userAgent { try easy.userAgent(userAgent) }
            let error = try run(easy, on: multi)
            easy.resetForReuse()
            return error
        }
        #expect(try transfer(protocols: "http,https", proxy: "", userAgent: "first") == nil)
        // Each of these fails only if its option reached curl: a value kept from before would let it through.
        #expect(try transfer(protocols: "https", proxy: "", userAgent: nil)?.kind == .unsupportedProtocol)
        #expect(try transfer(protocols: "http,https", proxy: "http://127.0.0.1:9", userAgent: nil)?.kind == .couldNotConnect)
        #expect(try transfer(protocols: "http,https", proxy: "", userAgent: "again") == nil)
        #expect(sink.bodies == 2)
    }

    /// A reused handle keeps the header lines its last request began with and makes the rest
    /// again (``CurlEasy/setHeaders(_:)``): each request sends exactly its own lines, whether
    /// they differ at the end, in the middle, are fewer, or are none.
    @Test func aReusedHandleSendsExactlyTheHeaderLinesOfEachRequest() throws {
        let faults = try FaultServer()
        try faults.serve("one.pdf", Data(repeating: 7, count: 100))
        let easy = CurlEasy()
        let multi = CurlMulti()
        let sink = Sink()
        let sets: [[CurlHeaderLine]] = [
            [CurlHeaderLine("X-One: ", "1"), CurlHeaderLine("X-Two: ", "2"), CurlHeaderLine("X-Three: ", "3")],
            [CurlHeaderLine("X-One: ", "1"), CurlHeaderLine("X-Two: ", "2"), CurlHeaderLine("X-Three: ", "three")],
            [CurlHeaderLine("X-One: ", "1"), CurlHeaderLine("X-Two: ", "22"), CurlHeaderLine("X-Three: ", "three")],
            [CurlHeaderLine("X-One: ", "1"), CurlHeaderLine("X-Two: ", "2")],
            [CurlHeaderLine("X-One: ", "1"), CurlHeaderLine("X-Two: ", "2"), CurlHeaderLine("X-Four: ", "")],
            [CurlHeaderLine("X-On", "e: 1")],
            [],
            [CurlHeaderLine("X-Two: ", "2")],
        ]
        for lines in sets {
            easy.delegate = sink
            try easy.url(faults.url("one.pdf"))
            try easy.setHeaders(lines)
            #expect(try run(easy, on: multi) == nil)
            easy.resetForReuse()
        }
        let sent = faults.requests(for: "/one.pdf").map { request in
            ["x-one", "x-two", "x-three", "x-four"].compactMap { name in request.header(name).map { "\(name)=\($0)" } }
        }
        #expect(sent == [
            ["x-one=1", "x-two=2", "x-three=3"], ["x-one=1", "x-two=2", "x-three=three"], ["x-one=1", "x-two=22", "x-three=three"],
            ["x-one=1", "x-two=2"], ["x-one=1", "x-two=2"], ["x-one=1"], [], ["x-two=2"],
        ])
    }

    /// Sizing the receive buffer of a reused handle never fails its transfer: over plain
    /// HTTP curl sizes it anew; over HTTP/2 it may keep the last one and refuse (see
    /// ``CurlEasy/receiveBuffer(_:)``), and reads into that one.
    @Test func aReusedHandleReceivesWholeBodiesWhateverBufferItIsSizedFor() throws {
        let secure = try NginxServer(tls: true)
        let body = Data(repeating: 1, count: 4 << 20)
        try server.serve("big.bin", body)
        try secure.serve("big.bin", body)
        let easy = CurlEasy()
        let multi = CurlMulti()
        let sink = Sink()
        for (url, size) in [(secure.secureURL("big.bin"), 32 << 10), (secure.secureURL("big.bin"), 256 << 10),
                            (server.url("big.bin"), 256 << 10), (server.url("big.bin"), 16 << 10)] {
            sink.received = 0
            easy.delegate = sink
            try easy.url(url)
            try easy.trust(CertificateAuthorities(file: secure.certificatePath, folder: nil, withoutBuiltInFile: false))
            easy.receiveBuffer(size)
            #expect(try run(easy, on: multi) == nil)
            #expect(sink.received == body.count)
            easy.resetForReuse()
        }
    }

    /// A folder of hashed certificates, libcurl's own bundle file turned off, is enough to
    /// verify a server: how the system's authorities are trusted (``CertificateAuthorities``).
    @Test func aFolderAloneVerifiesAServerWhoseCertificateItHolds() throws {
        let secure = try NginxServer(tls: true)
        try secure.serve("one.pdf", Data(repeating: 7, count: 1_000))
        let folder = try TemporaryDirectory(prefix: "authorities")
        try TestCertificate.addToFolder(try #require(secure.certificatePath), folder: folder.path)
        let easy = CurlEasy()
        let sink = Sink()
        easy.delegate = sink
        try easy.url(secure.secureURL("one.pdf"))
        try easy.trust(CertificateAuthorities(file: nil, folder: folder.path, withoutBuiltInFile: true))
        #expect(try run(easy, on: CurlMulti()) == nil)
        #expect(sink.received == 1_000)
    }

    /// Runs one transfer on `easy` to its end; its error, `nil` for success.
    private func run(_ easy: CurlEasy, on multi: CurlMulti) throws -> CurlError? {
        try multi.add(easy)
        defer { multi.remove(easy) }
        while true {
            try multi.perform()
            if let (_, error) = multi.completedTransfers().first { return error }
            _ = try multi.poll(timeout: .milliseconds(100))
        }
    }

    /// Takes whatever a transfer delivers; counts the bodies that began.
    private final class Sink: CurlEasyDelegate {
        var bodies = 0
        /// The body bytes received.
        var received = 0
        private var inBody = false

        func curlEasy(_ easy: CurlEasy, receivedHeaderLine line: UnsafeRawBufferPointer) -> Bool {
            inBody = false
            return true
        }

        func curlEasy(_ easy: CurlEasy, receivedBody chunk: UnsafeRawBufferPointer) -> Bool {
            if !inBody { bodies += 1 }
            received += chunk.count
            inBody = true
            return true
        }
    }
}
