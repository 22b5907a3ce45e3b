import Synchronization

/// The latest readings of a ``ConditionMonitor``, shared between its thread (which writes
/// them) and any caller (which reads them), and the callback told about changes.
///
/// The callback hears only real changes: each update is resolved to ``Conditions`` and
/// compared with what the callback last heard (or, for the first, with what
/// ``ConditionMonitor/start()`` found), so repeated signals with the same values, or
/// changes the conditions do not show (a connectivity change that keeps the network
/// available), stay silent.
final class ConditionPublisher: Sendable {
    private let powerSupplies: PowerSupplyFolder
    private let onChange: @Sendable (Conditions) -> Void
    private let state: Mutex<State>

    private struct State {
        var readings = ConditionReadings()
        var sources: ConditionSources
        /// What the callback heard last, or the starting point.
        var reported: Conditions?
    }

    init(powerSupplies: PowerSupplyFolder, onChange: @escaping @Sendable (Conditions) -> Void) {
        self.powerSupplies = powerSupplies
        self.onChange = onChange
        let sources = ConditionSources(
            power: .powerSupplyFolder(path: powerSupplies.path, reason: "the monitor has not started"),
            network: .none(reason: "the monitor has not started")
        )
        state = Mutex(State(sources: sources))
    }

    /// The conditions now; when power comes from the power-supply folder, read afresh.
    var current: Conditions {
        state.withLock(\.readings).conditions { powerSupplies.onMainsPower }
    }

    /// Where the readings come from now.
    var sources: ConditionSources {
        state.withLock(\.sources)
    }

    /// Takes the sources' first readings as the starting point; the callback is not called.
    func start(with readings: ConditionReadings, from sources: ConditionSources) {
        let conditions = readings.conditions { powerSupplies.onMainsPower }
        state.withLock { state in
            state.readings = readings
            state.sources = sources
            state.reported = conditions
        }
    }

    /// Takes new readings and calls the callback, on the caller's thread, if the conditions
    /// they amount to differ from what it heard last. Called on the monitor's thread only,
    /// so the callback hears changes one at a time and in order.
    func update(with readings: ConditionReadings, from sources: ConditionSources) {
        let conditions = readings.conditions { powerSupplies.onMainsPower }
        let changed = state.withLock { state in
            state.readings = readings
            state.sources = sources
            defer { state.reported = conditions }
            return state.reported != conditions
        }
        if changed {
            onChange(conditions)
        }
    }
}
