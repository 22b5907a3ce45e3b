import FoundationEssentials

/// Decides when the agent counts as offline, and when to try the network again: offline is
/// a condition files wait for quietly, not a failure of each file.
///
/// The network monitor's word comes first (no network, a captive portal). Beyond it, a
/// server name that does not resolve while no other server has answered lately means the
/// network cannot resolve names — no resolver, DNS down — and counts as offline too; a name
/// that fails while other servers answer is that file's own failure (a typo, a dead domain).
/// Offline by names ends when a server answers. It is tried again at once when the network
/// changes (``Conditions/networkChanges`` or any other value), and otherwise after a wait that
/// doubles from ``firstRetry`` to ``longestRetry``.
///
/// Pure: time comes in as arguments, so it is tested with fixed dates.
struct OfflineTracker {
    /// A resolution failure this soon after a server answered is the file's own.
    static let recentAnswer: TimeInterval = 60
    static let firstRetry: TimeInterval = 60
    static let longestRetry: TimeInterval = 15 * 60

    /// Offline because names do not resolve.
    private struct Unresolved {
        var host: String
        /// The monitor's conditions when last tried: a change is worth a try at once.
        var conditions: Conditions
        var retryAt: Date
        var delay: TimeInterval
        /// A try is under way: its first failure makes the next wait longer.
        var trying = false
    }

    private var monitorWait: NetworkWait?
    private var unresolved: Unresolved?
    private var lastAnswer: Date?

    /// Why work waits for the network now; `nil`: it does not.
    var wait: NetworkWait? {
        monitorWait ?? unresolved.map { .namesDoNotResolve(host: $0.host) }
    }

    /// A server answered (any HTTP response): names resolve and the network works.
    mutating func serverAnswered(at now: Date) {
        lastAnswer = now
        unresolved = nil
    }

    /// `host`'s name did not resolve under `conditions`. Returns whether that counts as
    /// offline (then the file waits instead of failing).
    mutating func nameDidNotResolve(host: String, under conditions: Conditions, at now: Date) -> Bool {
        guard var offline = unresolved else {
            if let lastAnswer, now.timeIntervalSince(lastAnswer) < Self.recentAnswer { return false }
            unresolved = Unresolved(host: host, conditions: conditions, retryAt: now.addingTimeInterval(Self.firstRetry), delay: Self.firstRetry)
            return true
        }
        if offline.trying {
            offline.trying = false
            offline.delay = min(offline.delay * 2, Self.longestRetry)
            offline.retryAt = now.addingTimeInterval(offline.delay)
        }
        unresolved = offline
        return true
    }

    /// The conditions a scheduling round at `now` should plan with, given the monitor's, and
    /// when to plan again for the network's sake.
    mutating func planningConditions(_ given: Conditions, at now: Date) -> (conditions: Conditions, retryAt: Date?) {
        monitorWait = !given.networkAvailable ? .noNetwork : given.networkNeedsLogin ? .networkLogin : nil
        guard monitorWait == nil, var offline = unresolved else { return (given, nil) }
        if offline.conditions != given || now >= offline.retryAt {
            // Try again now: the network changed, or it is time.
            offline.conditions = given
            offline.retryAt = now.addingTimeInterval(offline.delay)
            offline.trying = true
            unresolved = offline
            return (given, nil)
        }
        var waiting = given
        waiting.networkAvailable = false
        return (waiting, offline.retryAt)
    }
}
