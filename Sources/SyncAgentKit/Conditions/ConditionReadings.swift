/// What the condition sources said last, before defaults fill the gaps.
///
/// A source that is missing or failed reads `nil`, and ``conditions(powerSupplies:)``
/// decides what that means. The defaults lean towards letting discretionary work run,
/// because a desktop without UPower or NetworkManager must not wait forever, while power
/// still needs no service at all to be seen discharging (``PowerSupplyFolder``).
struct ConditionReadings: Sendable, Equatable {
    /// What GIO's network monitor reported.
    struct Network: Sendable, Equatable {
        /// `network-available`: a default route (netlink), or NetworkManager connected beyond the link.
        var available: Bool
        /// `network-metered`: only NetworkManager knows; the netlink backend always says false.
        var metered: Bool
        /// `connectivity` is `PORTAL`: a captive portal wants a login first.
        var needsLogin = false
        /// How many `network-changed` signals the monitor has seen.
        var changes = 0
    }

    /// UPower's `OnBattery`; nil while UPower is not running or the system bus cannot be reached.
    var upowerOnBattery: Bool?
    /// The network monitor's view; nil when GIO could not create one.
    var network: Network?

    /// The conditions these readings amount to.
    ///
    /// - Power: UPower when it answers; otherwise `powerSupplies()`, which is called only
    ///   then (it reads `/sys/class/power_supply`, see ``PowerSupplyFolder/onMainsPower(_:)``
    ///   for its own defaults: mains unless a battery is visibly in use).
    /// - Network: with no monitor at all, available and not metered. GIO always has at least
    ///   its "base" backend, so this only guards against a broken GIO; an agent that wrongly
    ///   believes it is online merely sees its transfers fail and retry.
    func conditions(powerSupplies: () -> Bool) -> Conditions {
        Conditions(
            onMainsPower: upowerOnBattery.map { !$0 } ?? powerSupplies(),
            networkAvailable: network?.available ?? true,
            networkMetered: network?.metered ?? false,
            networkNeedsLogin: network?.needsLogin ?? false,
            networkChanges: network?.changes ?? 0
        )
    }

    /// Whether power comes from the folder, which must then be read afresh on each query.
    var powerFromSupplyFolder: Bool {
        upowerOnBattery == nil
    }
}
