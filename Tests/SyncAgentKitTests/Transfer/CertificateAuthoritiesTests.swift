import Testing
@testable import SyncAgentKit

/// Which certificate authorities a TLS connection trusts: the user's, named as for curl,
/// beside libcurl's own; without them, the system's folder alone, which OpenSSL looks up per
/// issuer instead of reading the whole bundle for every connection.
struct CertificateAuthoritiesTests {
    private func authorities(_ environment: [String: String], builtInFolder: String? = "/etc/ssl/certs") -> CertificateAuthorities {
        CertificateAuthorities(environment: { environment[$0] }, builtInFolder: builtInFolder)
    }

    @Test func withNoneNamedTheSystemsFolderAloneIsTrusted() {
        let trusted = authorities([:])
        #expect(trusted.file == nil && trusted.folder == nil)
        #expect(trusted.withoutBuiltInFile)
    }

    @Test func withoutABuiltInFolderTheBuiltInBundleStays() {
        #expect(!authorities([:], builtInFolder: nil).withoutBuiltInFile)
    }

    @Test func aNamedFileIsTrustedBesideLibcurlsOwn() {
        let trusted = authorities(["CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem"])
        #expect(trusted.file == "/a.pem")
        #expect(!trusted.withoutBuiltInFile)
        #expect(authorities(["SSL_CERT_FILE": "/b.pem"]).file == "/b.pem")
    }

    @Test func aNamedFolderIsTrustedBesideLibcurlsOwn() {
        let trusted = authorities(["SSL_CERT_DIR": "/certs"])
        #expect(trusted.folder == "/certs" && trusted.file == nil)
        #expect(!trusted.withoutBuiltInFile)
    }

    @Test func anEmptyVariableCountsAsUnset() {
        let trusted = authorities(["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": "/b.pem", "SSL_CERT_DIR": ""])
        #expect(trusted.file == "/b.pem" && trusted.folder == nil)
        #expect(authorities(["CURL_CA_BUNDLE": "", "SSL_CERT_DIR": ""]).withoutBuiltInFile)
    }
}
