import Testing
@testable import SyncAgentKit

struct HTTPURLTests {
    @Test(arguments: [
        ("https://developer.apple.com/library/a.pdf", "developer.apple.com", "/library/a.pdf"),
        ("HTTP://Example.org", "Example.org", ""),
        ("http://user:pw@example.org:8080/x?y=/z#w", "example.org", "/x"),
        ("https://[2001:db8::1]:443/v6.pdf", "[2001:db8::1]", "/v6.pdf"),
        ("https://example.org?query", "example.org", ""),
        ("HtTpS://e.org/a.pdf", "e.org", "/a.pdf"),
    ])
    func takesApartHTTPAndHTTPSURLs(text: String, host: String, path: String) throws {
        #expect(try HTTPURL.parse(text) == HTTPURL(text: text, host: host, path: path))
    }

    @Test(arguments: [
        ("ftp://example.org/a.pdf", ManifestError.Code.unsupportedScheme),
        ("file:///etc/passwd", .unsupportedScheme),
        ("javascript:alert(1)", .unsupportedScheme),
        ("htt://example.org/a.pdf", .unsupportedScheme),
        ("httpx://example.org/a.pdf", .unsupportedScheme),
        ("httpss://example.org/a.pdf", .unsupportedScheme),
        ("hTtP+s://example.org/a.pdf", .unsupportedScheme),
        ("example.org/a.pdf", .badValue),
        ("//example.org/a.pdf", .badValue),
        ("https:/example.org/a.pdf", .badValue),
        ("https://", .badValue),
        ("https://user@/a.pdf", .badValue),
        ("https://[::1/a.pdf", .badValue),
        ("https://example.org:http/a.pdf", .badValue),
        ("https://example.org/a\u{7}.pdf", .controlCharacter),
    ])
    func refusesOtherURLs(text: String, code: ManifestError.Code) {
        #expect(throws: HTTPURL.Problem.self) { try HTTPURL.parse(text) }
        do {
            _ = try HTTPURL.parse(text)
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func namesTheSchemeInLowerCaseWhenTheSlashesAreMissing() {
        #expect(throws: HTTPURL.Problem(code: .badValue, message: "the URL \"HTTPS:/e.org\" has no \"//\" after \"https:\"; expected \"https://host/…\"")) {
            try HTTPURL.parse("HTTPS:/e.org")
        }
        #expect(throws: HTTPURL.Problem(code: .badValue, message: "the URL \"Http:e.org\" has no \"//\" after \"http:\"; expected \"http://host/…\"")) {
            try HTTPURL.parse("Http:e.org")
        }
    }

    @Test func findsTheLastPathComponent() throws {
        #expect(try HTTPURL.parse("https://e.org/a/b.pdf?x=1").lastPathComponent == "b.pdf")
        #expect(try HTTPURL.parse("https://e.org/a/").lastPathComponent == "")
        #expect(try HTTPURL.parse("https://e.org").lastPathComponent == "")
    }
}
