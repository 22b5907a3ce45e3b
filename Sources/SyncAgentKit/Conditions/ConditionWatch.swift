/// The GLib sources a ``ConditionMonitor`` watches — UPower and GIO's network monitor —
/// made, asked and released on the monitor's thread, inside its private main context.
///
/// A source that cannot be made is left out, with the reason kept for
/// ``ConditionSources``; ``ConditionReadings`` then supplies the defaults.
final class ConditionWatch {
    private let upower: Result<UPowerProxy, ConditionMonitorError>
    private let network: Result<GIONetworkMonitor, ConditionMonitorError>
    private let powerSupplyPath: String

    /// Makes the sources (blocking while D-Bus answers); `onChange` runs on this thread
    /// after any of them signals a change, with this watch to read from.
    init(powerSupplyPath: String, onChange: @escaping (ConditionWatch) -> Void) {
        self.powerSupplyPath = powerSupplyPath
        upower = Result { () throws(ConditionMonitorError) in try UPowerProxy() }
        network = Result { () throws(ConditionMonitorError) in try GIONetworkMonitor() }
        // Signals are dispatched only by this thread's loop, which runs after init, so
        // nothing can fire before these are set.
        let notify = { [unowned self] in onChange(self) }
        if case .success(let proxy) = upower {
            proxy.onChange = notify
        }
        if case .success(let monitor) = network {
            monitor.onChange = notify
        }
    }

    /// What the sources say now.
    var readings: ConditionReadings {
        ConditionReadings(
            upowerOnBattery: (try? upower.get())?.onBattery,
            network: (try? network.get())?.reading
        )
    }

    /// Which sources answer now, and why the others do not.
    var sources: ConditionSources {
        let power: ConditionSources.Power = switch upower {
        case .success(let proxy) where proxy.onBattery != nil:
            .upower
        case .success(let proxy):
            .powerSupplyFolder(
                path: powerSupplyPath,
                reason: proxy.isRunning ? "UPower does not report OnBattery" : "UPower is not running"
            )
        case .failure(let error):
            .powerSupplyFolder(path: powerSupplyPath, reason: error.message)
        }
        let networkSource: ConditionSources.Network = switch network {
        case .success(let monitor): .gio(backend: monitor.backend)
        case .failure(let error): .none(reason: error.message)
        }
        return ConditionSources(power: power, network: networkSource)
    }
}
