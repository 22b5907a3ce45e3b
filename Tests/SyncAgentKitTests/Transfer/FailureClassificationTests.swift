import Testing
@testable import SyncAgentKit

struct FailureClassificationTests {
    @Test(arguments: [
        (404, TransferFailure.Code.notFound), (410, .gone), (429, .tooManyRequests), (500, .serverError),
        (503, .serverError), (408, .timeout), (403, .httpStatus), (401, .httpStatus),
    ])
    func statusCodes(status: Int, code: TransferFailure.Code) {
        #expect(FailureClassification.failure(forStatus: status, reason: "", retryAfter: nil).code == code)
    }

    @Test func transientAndPermanent() {
        #expect(FailureClassification.failure(forStatus: 503, reason: "", retryAfter: nil).code.isTransient)
        #expect(!FailureClassification.failure(forStatus: 404, reason: "", retryAfter: nil).code.isTransient)
    }

    @Test func messagesUseTheServersReasonOrTheStandardOne() {
        #expect(FailureClassification.failure(forStatus: 404, reason: "", retryAfter: nil).message == "the server answered 404 Not Found")
        #expect(FailureClassification.failure(forStatus: 503, reason: "Down for Maintenance", retryAfter: nil).message
            == "the server answered 503 Down for Maintenance")
        #expect(FailureClassification.failure(forStatus: 418, reason: "", retryAfter: nil).message == "the server answered 418")
    }

    @Test func retryAfterIsKeptForTransientStatuses() {
        #expect(FailureClassification.failure(forStatus: 429, reason: "", retryAfter: .seconds(5)).retryAfter == .seconds(5))
    }

    @Test(arguments: [
        ("https://example.org/a/b.pdf", "example.org"), ("http://user:pw@127.0.0.1:8080/x", "127.0.0.1:8080"),
        ("https://example.org?q=1", "example.org"),
        ("https://example.org#top", "example.org"), ("https://a@b@example.org:443/x@y", "example.org:443"),
        ("https://bücher.example/ä", "bücher.example"), ("https://", ""), ("example.org/a", "example.org/a"),
        ("mailto:someone@example.org", "mailto:someone@example.org"), ("http:/x", "http:/x"),
    ])
    func hostNames(url: String, host: String) {
        #expect(FailureClassification.hostName(of: url) == host)
    }
}
