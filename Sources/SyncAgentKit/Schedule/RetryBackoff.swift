import FoundationEssentials

/// When to try a failed transfer again: exponential backoff with jitter, and the server's
/// `Retry-After` first.
///
/// Two clocks use it: the engine between attempts inside one batch (``delay(afterAttempt:cause:unitRandom:)``),
/// and the agent between batches (``nextAttempt(after:failedAttempts:at:unitRandom:)``), whose
/// answer is kept in ``FileRecord/nextAttempt`` and read back by the ``Scheduler``.
public struct RetryBackoff: Sendable {
    /// The manifest's `retry` settings.
    public let policy: Manifest.RetryPolicy

    /// The longest a server's `Retry-After` is obeyed between batches. Beyond it, a server
    /// (or a clock) that is wrong would hold a file back indefinitely.
    public static let longestServerRequestedWait: Duration = .seconds(86_400)

    /// Backoff by the manifest's `retry` settings.
    public init(policy: Manifest.RetryPolicy) {
        self.policy = policy
    }

    /// The wait before attempt `attempt + 1`, after `attempt` failed attempts (1-based), or
    /// `nil` when no retry is due: attempts used up, a permanent failure, or a server asking
    /// for longer than the policy's longest wait.
    /// - Parameter unitRandom: a value in 0..<1; the wait is drawn from the upper half of the
    ///   exponential step ("equal jitter"), so clients that failed together spread out.
    func delay(afterAttempt attempt: Int, cause: RetryCause, unitRandom: Double) -> Duration? {
        guard cause.isTransient, attempt < policy.attempts else { return nil }
        if let requested = cause.retryAfter {
            return requested <= policy.maximumBackoff ? requested : nil
        }
        return jitteredStep(afterAttempt: attempt, unitRandom: unitRandom)
    }

    /// When the agent should try a file again after a batch in which it failed, or `nil` when
    /// a retry cannot help (404, checksum mismatch…): such a file waits for its next `every`.
    ///
    /// The wait doubles from the policy's first wait with each failed batch in a row, drawn
    /// with equal jitter, and never exceeds the policy's longest wait. A server's `Retry-After`
    /// wins, even beyond that longest wait — coming back sooner would only be refused again —
    /// up to ``longestServerRequestedWait``. `retry.attempts` limits one batch, not this: a
    /// file that keeps failing keeps being retried, at the longest wait.
    /// - Parameters:
    ///   - failedAttempts: failed batches in a row, this one included (1 after the first).
    ///   - now: when the failure was recorded.
    ///   - unitRandom: a value in 0..<1 (injected so tests can pin it).
    public func nextAttempt(after cause: RetryCause, failedAttempts: Int, at now: Date, unitRandom: Double) -> PendingRetry? {
        guard cause.isTransient else { return nil }
        if let requested = cause.retryAfter {
            let wait = min(max(requested, .zero), Self.longestServerRequestedWait)
            return PendingRetry(date: now.adding(wait), requestedByServer: true)
        }
        let wait = jitteredStep(afterAttempt: max(failedAttempts, 1), unitRandom: unitRandom)
        return PendingRetry(date: now.adding(wait), requestedByServer: false)
    }

    /// The exponential step after `attempt` failures, capped, with equal jitter.
    private func jitteredStep(afterAttempt attempt: Int, unitRandom: Double) -> Duration {
        let exponent = min(attempt - 1, 30)
        let step = min(policy.initialBackoff * (1 << exponent), policy.maximumBackoff)
        return step / 2 + (step / 2) * unitRandom
    }
}
