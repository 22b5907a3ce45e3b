/// What the machine offers right now, as far as discretionary work cares.
///
/// Discretionary transfers (like `NSURLSessionConfiguration.discretionary`) wait until the
/// machine is on mains power and on a network that is there and not metered. Work the user
/// asked for explicitly ignores conditions.
public struct Conditions: Sendable, Equatable {
    /// Plugged in (or a machine with no battery at all).
    public var onMainsPower: Bool
    /// A network that can reach beyond this machine is up.
    public var networkAvailable: Bool
    /// The network is metered (mobile data, a tethered phone, a connection marked so).
    public var networkMetered: Bool
    /// The network leads only to a captive portal (GIO's connectivity `PORTAL`): nothing can
    /// be fetched until someone logs in, so scheduled work waits for that.
    public var networkNeedsLogin: Bool
    /// How many times the network changed (GIO's `network-changed`: routes, connections) since
    /// the monitor started. A new count is worth a new try of work that waits for a network
    /// whose names did not resolve, even when the other values stay the same.
    public var networkChanges: Int

    public init(onMainsPower: Bool, networkAvailable: Bool, networkMetered: Bool, networkNeedsLogin: Bool = false,
                networkChanges: Int = 0) {
        self.onMainsPower = onMainsPower
        self.networkAvailable = networkAvailable
        self.networkMetered = networkMetered
        self.networkNeedsLogin = networkNeedsLogin
        self.networkChanges = networkChanges
    }

    /// Mains power and an unmetered network: what a caller that does not watch the machine
    /// assumes.
    public static let favourable = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false)

    /// Whether discretionary work may run now.
    public var allowDiscretionaryWork: Bool {
        onMainsPower && networkAvailable && !networkMetered
    }
}
