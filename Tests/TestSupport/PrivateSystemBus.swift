/// A private D-Bus bus standing in for the system bus, for one test: a
/// ``NotificationBus`` with no server on it (it activates nothing either), whose address a
/// client process gets as `DBUS_SYSTEM_BUS_ADDRESS`.
///
/// Put ``FakeSystemService``s on it. ``stop()``, the last reference going away, or the test
/// process dying kills the bus.
public final class PrivateSystemBus: Sendable {
    private let bus: NotificationBus

    /// The bus address, as `DBUS_SYSTEM_BUS_ADDRESS` takes it.
    public var address: String { bus.address }

    /// Starts the bus; throws after `startTimeout`.
    public init(startTimeout: Duration = .seconds(20)) throws {
        bus = try NotificationBus(server: .none, startTimeout: startTimeout)
    }

    /// The environment for a client process whose system bus is this one: no session bus
    /// or display either (see ``NotificationBus/environmentWithoutSessionBus(runtimeDirectory:)``),
    /// and no `GIO_USE_NETWORK_MONITOR`, so GIO picks its network monitor by itself.
    public var clientEnvironment: [String: String] {
        var environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: bus.directory.path)
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        environment["GIO_USE_NETWORK_MONITOR"] = nil
        return environment
    }

    /// An environment like ``clientEnvironment`` whose system bus address leads nowhere,
    /// for a client that must find no system bus at all.
    public var environmentWithoutSystemBus: [String: String] {
        var environment = clientEnvironment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(bus.directory.appending("no-such-bus"))"
        return environment
    }

    /// Kills the bus and deletes its directory; doing it twice is harmless.
    public func stop() {
        bus.stop()
    }
}
