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

    public init(onMainsPower: Bool, networkAvailable: Bool, networkMetered: Bool) {
        self.onMainsPower = onMainsPower
        self.networkAvailable = networkAvailable
        self.networkMetered = networkMetered
    }

    /// Mains power and an unmetered network: what a caller that does not watch the machine
    /// assumes.
    public static let favourable = Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false)

    /// Whether discretionary work may run now.
    public var allowDiscretionaryWork: Bool {
        onMainsPower && networkAvailable && !networkMetered
    }
}
