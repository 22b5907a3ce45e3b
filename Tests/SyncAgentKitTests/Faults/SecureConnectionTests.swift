import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// TLS is always verified: a certificate nobody vouches for is a failure a retry cannot fix.
/// (The end-to-end fault tests trust the fault server's certificate through `CURL_CA_BUNDLE`.)
struct SecureConnectionTests {
    /// The server's certificate is made afresh for the test, so no CA bundle holds it.
    @Test func anUntrustedCertificateIsRefusedAndNotRetried() throws {
        let server = try FaultServer(tls: true)
        let folder = try TemporaryDirectory(prefix: "tls")
        try server.serve("/secret.pdf", randomData(1_000))
        let run = FaultRun([TransferRequest(id: 0, url: server.secureURL("/secret.pdf"), destination: folder.appending("secret.pdf"))])
        let failure = try #require(run.failure())
        #expect(failure.code == .tls)
        #expect(failure.message.hasPrefix("the secure connection to 127.0.0.1:\(server.securePort!) could not be verified"))
        #expect(run.retriedFailures.isEmpty)
        #expect(server.requests().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("secret.pdf")))
    }
}
