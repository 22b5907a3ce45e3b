import Foundation
import Testing
@testable import SyncAgentKit

struct RetryBackoffTests {
    let backoff = RetryBackoff(policy: Manifest.RetryPolicy(attempts: 5, initialBackoff: .seconds(2), maximumBackoff: .seconds(10)))
    let reset = RetryCause.transient

    @Test func doublesWithJitterInTheUpperHalfUpToTheCap() {
        #expect(backoff.delay(afterAttempt: 1, cause: reset, unitRandom: 0) == .seconds(1))
        #expect(backoff.delay(afterAttempt: 1, cause: reset, unitRandom: 0.999_999)! < .seconds(2))
        #expect(backoff.delay(afterAttempt: 2, cause: reset, unitRandom: 0) == .seconds(2))
        #expect(backoff.delay(afterAttempt: 3, cause: reset, unitRandom: 0.5) == .seconds(6))
        #expect(backoff.delay(afterAttempt: 4, cause: reset, unitRandom: 1) == .seconds(10))
    }

    @Test func stopsWhenAttemptsAreUsedUp() {
        #expect(backoff.delay(afterAttempt: 5, cause: reset, unitRandom: 0) == nil)
    }

    @Test func neverRetriesAPermanentFailure() {
        #expect(backoff.delay(afterAttempt: 1, cause: .permanent, unitRandom: 0) == nil)
    }

    @Test func theServersRetryAfterWinsUnlessItIsTooLong() {
        let busy = RetryCause(isTransient: true, retryAfter: .seconds(7))
        #expect(backoff.delay(afterAttempt: 1, cause: busy, unitRandom: 0.9) == .seconds(7))
        let tooLong = RetryCause(isTransient: true, retryAfter: .seconds(3600))
        #expect(backoff.delay(afterAttempt: 1, cause: tooLong, unitRandom: 0) == nil)
    }

    // MARK: between batches

    let failedAt = Date(timeIntervalSince1970: 1_781_524_800)

    private func nextAttempt(_ cause: RetryCause, failedAttempts: Int, unitRandom: Double) -> PendingRetry? {
        backoff.nextAttempt(after: cause, failedAttempts: failedAttempts, at: failedAt, unitRandom: unitRandom)
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
        #expect(nextAttempt(.permanent, failedAttempts: 1, unitRandom: 0) == nil)
        #expect(nextAttempt(.permanent, failedAttempts: 3, unitRandom: 0) == nil)
    }

    @Test func obeysTheServersRetryAfterEvenBeyondTheLongestBackoff() {
        let busy = RetryCause(isTransient: true, retryAfter: .seconds(7))
        #expect(nextAttempt(busy, failedAttempts: 1, unitRandom: 0.9) == after(7, byServer: true))
        let throttled = RetryCause(isTransient: true, retryAfter: .seconds(3600))
        #expect(nextAttempt(throttled, failedAttempts: 9, unitRandom: 0) == after(3600, byServer: true))
    }

    @Test func obeysARetryAfterForADayAtMost() {
        let absurd = RetryCause(isTransient: true, retryAfter: .seconds(365 * 86_400))
        #expect(nextAttempt(absurd, failedAttempts: 1, unitRandom: 0) == after(86_400, byServer: true))
    }
}
