/// What the agent's loop can be asked from outside, besides control commands.
public enum AgentRequest: Sendable, Equatable {
    /// Save the state and end (SIGTERM, SIGINT).
    case stop
    /// Read the manifest again (SIGHUP).
    case reload
}

/// Where the agent's loop hears an ``AgentRequest``: a descriptor its poll watches, readable
/// when requests wait. ``SignalInbox`` is the real one; tests use a pipe.
public protocol AgentRequests: AnyObject {
    /// Readable when a request is waiting.
    var descriptor: Int32 { get }
    /// The requests received since the last call, oldest first.
    func take() -> [AgentRequest]
}
