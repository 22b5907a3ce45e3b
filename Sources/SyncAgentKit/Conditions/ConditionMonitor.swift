import Synchronization

/// Watches whether discretionary work may run: mains power, and a network that is
/// available and not metered — read from the desktop's own services.
///
/// - Power: UPower's `OnBattery` on the system bus, with its change signals. Without
///   UPower (not installed, not running, no system bus): `/sys/class/power_supply`, which
///   has no change signal and is read afresh on every ``current`` (see
///   ``PowerSupplyFolder``); the agent asks each time its loop wakes, so a change counts
///   from its next wake-up rather than at once.
/// - Network: GIO's `GNetworkMonitor` — NetworkManager's view (metered connections
///   included) when NetworkManager is on the system bus at start, otherwise the kernel's
///   routes through netlink (available when there is a default route; never metered).
///
/// A missing source falls back to defaults chosen so that discretionary work is never
/// held back forever on a machine that cannot tell, yet still waits on a laptop seen
/// running from its battery (``ConditionReadings``). ``sources`` says which are in use.
///
/// GLib delivers signals only through a running main context. The monitor runs a private
/// `GMainContext` and `GMainLoop` on a thread of its own, from ``start()`` to ``stop()``,
/// and keeps every GLib object on that thread; the process's global default context, which
/// libnotify uses, is never touched.
///
/// The change callback runs on that thread, once per real change (repeats are dropped),
/// and should return quickly — waking the agent's `curl_multi_poll` is its purpose. It
/// must not call ``stop()``.
public final class ConditionMonitor: Sendable {
    private let publisher: ConditionPublisher
    private let powerSupplyPath: String
    private let lifecycle = Mutex(Lifecycle.ready)

    private enum Lifecycle {
        case ready
        case running(GLibMainLoopThread)
        /// Started without GLib: nothing to run; power is read from the power-supply folder.
        case unwatched
        case stopped
    }

    /// A monitor that calls `onChange` with the new conditions whenever they change after
    /// ``start()``; it watches nothing until then.
    public convenience init(onChange: @escaping @Sendable (Conditions) -> Void) {
        self.init(powerSupplyFolder: PowerSupplyFolder.systemPath, onChange: onChange)
    }

    /// A monitor that reads power supplies from `powerSupplyFolder` instead of
    /// `/sys/class/power_supply` when UPower is not there.
    @_spi(Testing)
    public init(powerSupplyFolder: String, onChange: @escaping @Sendable (Conditions) -> Void) {
        powerSupplyPath = powerSupplyFolder
        publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: powerSupplyFolder), onChange: onChange)
    }

    deinit {
        stop()
    }

    /// Starts watching and returns once the first readings are in, so ``current`` is
    /// meaningful from then on.
    ///
    /// Blocks while the system bus answers: milliseconds normally, and at worst GDBus's
    /// 25-second call timeout on a system bus that accepts connections but never replies.
    /// A monitor starts once; a second start, or one after ``stop()``, traps.
    /// Without GLib (not installed) nothing is watched: power comes from the power-supply
    /// folder and the network counts as available, as without a system bus.
    /// - Throws: ``ErrorCode/threadUnavailable`` when its
    ///   thread cannot be created. Missing sources are not errors; see ``sources``.
    public func start() throws(ConditionMonitorError) {
        try lifecycle.withLock { lifecycle throws(ConditionMonitorError) in
            guard case .ready = lifecycle else {
                preconditionFailure("ConditionMonitor.start() called twice, or after stop()")
            }
            let publisher = publisher
            let powerSupplyPath = powerSupplyPath
            do throws(ConditionMonitorError) {
                try Self.loadGLib()
            } catch {
                // As without a system bus: power from the power-supply folder, the network
                // taken as available and unmetered.
                let sources = ConditionSources(
                    power: .powerSupplyFolder(path: powerSupplyPath, reason: "no GLib to ask UPower"),
                    network: .none(reason: error.message)
                )
                publisher.start(with: ConditionReadings(upowerOnBattery: nil, network: nil), from: sources)
                lifecycle = .unwatched
                return
            }
            let thread = try GLibMainLoopThread(name: "syncagent-cond") {
                let watch = ConditionWatch(powerSupplyPath: powerSupplyPath) { watch in
                    publisher.update(with: watch.readings, from: watch.sources)
                }
                publisher.start(with: watch.readings, from: watch.sources)
                return watch
            }
            lifecycle = .running(thread)
        }
    }

    /// Opens GLib's family, once per process.
    /// - Throws: ``ErrorCode/noGLib``, saying which package to install.
    static func loadGLib() throws(ConditionMonitorError) {
        do {
            try SharedLibrary.gio.load()
        } catch {
            throw ConditionMonitorError(.noGLib, error.message)
        }
    }

    /// The conditions now. Thread-safe; cheap, except that without UPower it reads
    /// `/sys/class/power_supply` (a few small files). After ``stop()``, the last readings.
    public var current: Conditions {
        publisher.current
    }

    /// Which sources the conditions come from now, and why others are not used — worth a
    /// log line at start.
    public var sources: ConditionSources {
        publisher.sources
    }

    /// Stops watching: ends the loop, releases every GLib object on the monitor's thread
    /// and waits for that thread to exit. No callback runs once it returns. Doing it twice,
    /// or before ``start()``, is harmless.
    public func stop() {
        let thread: GLibMainLoopThread? = lifecycle.withLock { lifecycle in
            defer { lifecycle = .stopped }
            if case .running(let thread) = lifecycle {
                return thread
            }
            return nil
        }
        thread?.stop()
    }
}
