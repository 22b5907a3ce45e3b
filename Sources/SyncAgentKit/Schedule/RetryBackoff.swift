/// When to try a failed transfer again: exponential backoff with jitter, and the server's
/// `Retry-After` first.
struct RetryBackoff {
    let policy: Manifest.RetryPolicy

    /// The wait before attempt `attempt + 1`, after `attempt` failed attempts (1-based), or
    /// `nil` when no retry is due: attempts used up, a permanent failure, or a server asking
    /// for longer than the policy's longest wait.
    /// - Parameter unitRandom: a value in 0..<1; the wait is drawn from the upper half of the
    ///   exponential step ("equal jitter"), so clients that failed together spread out.
    func delay(afterAttempt attempt: Int, failure: TransferFailure, unitRandom: Double) -> Duration? {
        guard failure.code.isTransient, attempt < policy.attempts else { return nil }
        if let requested = failure.retryAfter {
            return requested <= policy.maximumBackoff ? requested : nil
        }
        let exponent = min(attempt - 1, 30)
        let step = min(policy.initialBackoff * (1 << exponent), policy.maximumBackoff)
        return step / 2 + (step / 2) * unitRandom
    }
}
