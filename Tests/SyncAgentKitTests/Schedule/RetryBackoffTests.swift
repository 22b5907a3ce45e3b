import Testing
@testable import SyncAgentKit

struct RetryBackoffTests {
    let backoff = RetryBackoff(policy: Manifest.RetryPolicy(attempts: 5, initialBackoff: .seconds(2), maximumBackoff: .seconds(10)))
    let reset = TransferFailure(.network, "the connection was lost")

    @Test func doublesWithJitterInTheUpperHalfUpToTheCap() {
        #expect(backoff.delay(afterAttempt: 1, failure: reset, unitRandom: 0) == .seconds(1))
        #expect(backoff.delay(afterAttempt: 1, failure: reset, unitRandom: 0.999_999)! < .seconds(2))
        #expect(backoff.delay(afterAttempt: 2, failure: reset, unitRandom: 0) == .seconds(2))
        #expect(backoff.delay(afterAttempt: 3, failure: reset, unitRandom: 0.5) == .seconds(6))
        #expect(backoff.delay(afterAttempt: 4, failure: reset, unitRandom: 1) == .seconds(10))
    }

    @Test func stopsWhenAttemptsAreUsedUp() {
        #expect(backoff.delay(afterAttempt: 5, failure: reset, unitRandom: 0) == nil)
    }

    @Test func neverRetriesAPermanentFailure() {
        #expect(backoff.delay(afterAttempt: 1, failure: TransferFailure(.notFound, "404"), unitRandom: 0) == nil)
        #expect(backoff.delay(afterAttempt: 1, failure: TransferFailure(.checksumMismatch, "x"), unitRandom: 0) == nil)
    }

    @Test func theServersRetryAfterWinsUnlessItIsTooLong() {
        let busy = TransferFailure(.serverError, "503", retryAfter: .seconds(7))
        #expect(backoff.delay(afterAttempt: 1, failure: busy, unitRandom: 0.9) == .seconds(7))
        let tooLong = TransferFailure(.tooManyRequests, "429", retryAfter: .seconds(3600))
        #expect(backoff.delay(afterAttempt: 1, failure: tooLong, unitRandom: 0) == nil)
    }
}
