import FoundationEssentials

/// Why a file does not start now. Each time-bound reason carries the moment the file can
/// start by time alone (all other time rules included).
public enum WaitReason: Sendable, Equatable {
    /// Checked recently (or failed for good): checked again `every` after the last check.
    case notDue(until: Date)
    /// The schedule's `not_before` is still ahead.
    case notBefore(Date)
    /// Outside the daily `window`; it opens then.
    case outsideWindow(opensAt: Date)
    /// A transient failure's backoff runs until then.
    case retry(at: Date)
    /// The server asked (`Retry-After`) not to be asked again before then.
    case serverAskedToWait(until: Date)
    /// No network is up, or names do not resolve; scheduled work waits for one.
    case waitingForNetwork
    /// The network is a captive portal (a hotel's or a train's login page); scheduled work
    /// waits until someone logs in.
    case waitingForNetworkLogin
    /// Discretionary work waits for mains power.
    case waitingForMainsPower
    /// Discretionary work waits for a network that is not metered.
    case waitingForUnmeteredNetwork

    /// When time alone ends the wait; `nil` when a change of conditions must end it.
    public var until: Date? {
        switch self {
        case .notDue(let date), .notBefore(let date), .outsideWindow(let date), .retry(let date), .serverAskedToWait(let date):
            date
        case .waitingForNetwork, .waitingForNetworkLogin, .waitingForMainsPower, .waitingForUnmeteredNetwork:
            nil
        }
    }
}
