import Foundation
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

    // MARK: between batches

    let failedAt = Date(timeIntervalSince1970: 1_781_524_800)

    private func nextAttempt(_ failure: TransferFailure, failedAttempts: Int, unitRandom: Double) -> PendingRetry? {
        backoff.nextAttempt(after: failure, failedAttempts: failedAttempts, at: failedAt, unitRandom: unitRandom)
    }

    private func after(_ seconds: Double, byServer: Bool = false) -> PendingRetry {
        PendingRetry(date: failedAt.addingTimeInterval(seconds), requestedByServer: byServer)
    }

    @Test func schedulesTheNextBatchWithJitterInTheUpperHalfOfADoublingStep() throws {
        #expect(nextAttempt(reset, failedAttempts: 1, unitRandom: 0) == after(1))
        let highest = try #require(nextAttempt(reset, failedAttempts: 1, unitRandom: 0.999_999))
        #expect(highest.date > failedAt.addingTimeInterval(1.999) && highest.date < failedAt.addingTimeInterval(2))
        #expect(nextAttempt(reset, failedAttempts: 2, unitRandom: 0) == after(2))
        #expect(nextAttempt(reset, failedAttempts: 3, unitRandom: 0.5) == after(6))
    }

    @Test func neverWaitsLongerThanTheLongestBackoff() {
        #expect(nextAttempt(reset, failedAttempts: 4, unitRandom: 1) == after(10))
        #expect(nextAttempt(reset, failedAttempts: 4, unitRandom: 0) == after(5))
        #expect(nextAttempt(reset, failedAttempts: 1_000, unitRandom: 1) == after(10))
    }

    @Test func keepsRetryingAfterABatchUsedUpItsAttempts() {
        #expect(nextAttempt(reset, failedAttempts: 5, unitRandom: 0) == after(5))
        #expect(nextAttempt(reset, failedAttempts: 50, unitRandom: 0.5) == after(7.5))
    }

    @Test func leavesAPermanentFailureToTheNextScheduledCheck() {
        #expect(nextAttempt(TransferFailure(.notFound, "the server answered 404 Not Found"), failedAttempts: 1, unitRandom: 0) == nil)
        #expect(nextAttempt(TransferFailure(.checksumMismatch, "x"), failedAttempts: 3, unitRandom: 0) == nil)
    }

    @Test func obeysTheServersRetryAfterEvenBeyondTheLongestBackoff() {
        let busy = TransferFailure(.serverError, "503", retryAfter: .seconds(7))
        #expect(nextAttempt(busy, failedAttempts: 1, unitRandom: 0.9) == after(7, byServer: true))
        let throttled = TransferFailure(.tooManyRequests, "429", retryAfter: .seconds(3600))
        #expect(nextAttempt(throttled, failedAttempts: 9, unitRandom: 0) == after(3600, byServer: true))
    }

    @Test func obeysARetryAfterForADayAtMost() {
        let absurd = TransferFailure(.tooManyRequests, "429", retryAfter: .seconds(365 * 86_400))
        #expect(nextAttempt(absurd, failedAttempts: 1, unitRandom: 0) == after(86_400, byServer: true))
    }
}
