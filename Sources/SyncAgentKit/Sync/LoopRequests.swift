/// What the loop that drives transfers — the agent's, or `--once`'s — can be asked from
/// outside, besides control commands.
public enum LoopRequest: Sendable, Equatable {
    /// Save the state and end (SIGTERM, SIGINT).
    case stop
    /// Read the manifest again (SIGHUP; `--once` ignores it).
    case reload
}

/// Where a loop hears a ``LoopRequest``: a descriptor its poll watches, readable when requests
/// wait. The agent's ``SignalInbox`` is the real one; tests use a pipe.
public protocol LoopRequests: AnyObject {
    /// Readable when a request is waiting.
    var descriptor: Int32 { get }
    /// The requests received since the last call, oldest first.
    func take() -> [LoopRequest]
}
