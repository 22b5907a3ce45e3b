/// Why scheduled work waits for the network, as the agent logs it and `status` shows it.
public enum NetworkWait: Sendable, Equatable {
    /// The network monitor says no network is up.
    case noNetwork
    /// The network is a captive portal (GIO's connectivity `PORTAL`).
    case networkLogin
    /// The monitor says online, yet a server's name did not resolve and no other server
    /// answered: a network without working name resolution counts as none.
    case namesDoNotResolve(host: String)

    /// One log line, said once when the wait begins.
    public var logLine: String {
        switch self {
        case .noNetwork: "waiting for a network: none is up; transfers start when one is"
        case .networkLogin: "waiting for network login: the network leads to a login page (a captive portal); transfers start once logged in"
        case .namesDoNotResolve(let host): "waiting for a network: server names do not resolve (cannot find \(host)); transfers start when the network changes, or at the next try"
        }
    }

    /// Whether a change from `self` to `other` is one the log should tell: the kind of wait
    /// changed (a network, or a login), not merely its detail.
    func differsInKind(from other: NetworkWait) -> Bool {
        (self == .networkLogin) != (other == .networkLogin)
    }
}
