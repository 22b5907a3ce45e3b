/// What backoff needs to know about a failure: whether a retry can help, and how long the
/// server asked to wait. The transfer layer describes its failures this way
/// (``TransferFailure/retryCause``), so scheduling does not depend on transfers.
public struct RetryCause: Sendable, Equatable {
    /// Whether trying again later may succeed (resets, timeouts, 5xx, 429).
    public var isTransient: Bool
    /// The server's `Retry-After`, if it sent one.
    public var retryAfter: Duration?

    public init(isTransient: Bool, retryAfter: Duration? = nil) {
        self.isTransient = isTransient
        self.retryAfter = retryAfter
    }

    /// A failure no retry can fix (404, checksum mismatch, TLS).
    public static let permanent = RetryCause(isTransient: false)
    /// A failure a retry may fix, with no word from the server on when.
    public static let transient = RetryCause(isTransient: true)
}
