import FoundationEssentials

/// A retry a failed file is waiting for: when, and whether the server asked for it.
///
/// The origin matters to a user's explicit request: it overrides syncagent's own backoff (a
/// guess), but not a server's `Retry-After` (an instruction; asking sooner is only refused).
public struct PendingRetry: Sendable, Equatable {
    /// The earliest moment to try again.
    public var date: Date
    /// Whether `date` comes from the server's `Retry-After` rather than syncagent's backoff.
    public var requestedByServer: Bool

    /// A retry due at `date`, asked for by the server or chosen by syncagent's backoff.
    public init(date: Date, requestedByServer: Bool) {
        self.date = date
        self.requestedByServer = requestedByServer
    }
}
