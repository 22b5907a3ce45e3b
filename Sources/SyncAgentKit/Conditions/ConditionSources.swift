/// Where a ``ConditionMonitor``'s conditions come from right now, for the agent's log.
public struct ConditionSources: Sendable, Equatable, CustomStringConvertible {
    /// Where power comes from.
    public enum Power: Sendable, Equatable {
        /// UPower on the system bus, with change signals.
        case upower
        /// A power-supply folder (`/sys/class/power_supply`), read on each query as it has no
        /// change signals; `reason` says why UPower is not used, e.g. "UPower is not running".
        case powerSupplyFolder(path: String, reason: String)
    }

    /// Where network availability and metering come from.
    public enum Network: Sendable, Equatable {
        /// GIO's network monitor, by its GIO extension name: "networkmanager" (asks
        /// NetworkManager, knows about metered connections), "netlink" (watches the kernel's
        /// routes; never metered), "portal" (inside a Flatpak sandbox) or "base" (always available).
        case gio(backend: String)
        /// No monitor could be created: the network counts as available and not metered.
        case none(reason: String)
    }

    /// Where ``Conditions/onMainsPower`` comes from.
    public var power: Power
    /// Where ``Conditions/networkAvailable`` and ``Conditions/networkMetered`` come from.
    public var network: Network

    /// Sources as given; the monitor makes these, tests and logs compare them.
    public init(power: Power, network: Network) {
        self.power = power
        self.network = network
    }

    /// E.g. "power from UPower; network from GIO's networkmanager monitor".
    public var description: String {
        let powerText = switch power {
        case .upower: "power from UPower"
        case .powerSupplyFolder(let path, let reason): "power from \(path) (\(reason))"
        }
        let networkText = switch network {
        case .gio(let backend): "network from GIO's \(backend) monitor"
        case .none(let reason): "network assumed available and unmetered (\(reason))"
        }
        return "\(powerText); \(networkText)"
    }
}
