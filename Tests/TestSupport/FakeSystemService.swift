import Foundation

/// A stand-in for a system service — UPower, NetworkManager — on a ``PrivateSystemBus``:
/// `/usr/bin/python3` with GIO owning the service's name and exporting one object with the
/// properties a client reads, which a test changes with ``set(_:to:)``.
///
/// Each change goes out as `org.freedesktop.DBus.Properties.PropertiesChanged`, as the
/// real services send it. ``stop()`` kills the process, so its name vanishes from the bus
/// the way a crashed or stopped service's does.
public final class FakeSystemService: Sendable {
    /// A property value, with its D-Bus type.
    public enum Value: Sendable, Equatable {
        case boolean(Bool)
        case uint32(UInt32)
        case string(String)

        /// The D-Bus signature, e.g. "b".
        var signature: String {
            switch self {
            case .boolean: "b"
            case .uint32: "u"
            case .string: "s"
            }
        }

        /// The value as GVariant text, boxed in a variant, as `gdbus call` takes it.
        var variantText: String {
            switch self {
            case .boolean(let value): "<\(value)>"
            case .uint32(let value): "<uint32 \(value)>"
            case .string(let value): "<'\(value.replacingOccurrences(of: "'", with: "\\'"))'>"
            }
        }

        /// The value for the script's JSON argument.
        var jsonValue: Any {
            switch self {
            case .boolean(let value): value
            case .uint32(let value): value
            case .string(let value): value
            }
        }
    }

    /// The bus name the service owns, e.g. "org.freedesktop.UPower".
    public let busName: String
    /// The object that carries the properties.
    public let objectPath: String
    /// The interface the properties belong to.
    public let interface: String
    private let busAddress: String
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// UPower's daemon object with `OnBattery`.
    /// - SeeAlso: https://upower.freedesktop.org/docs/UPower.html
    public static func upower(onBattery: Bool, on bus: PrivateSystemBus) throws -> FakeSystemService {
        try FakeSystemService(
            busName: "org.freedesktop.UPower", objectPath: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower",
            properties: ["OnBattery": .boolean(onBattery), "DaemonVersion": .string("0.99.20")],
            on: bus
        )
    }

    /// NetworkManager's manager object with what GIO's NetworkManager backend reads:
    /// `State` (NMState: 20 disconnected, 50 local, 60 site, 70 global), `Connectivity`
    /// (NMConnectivityState: 1 none … 4 full) and `Metered` (NMMetered: 1 yes, 2 no,
    /// 3 guess yes, 4 guess no).
    /// - SeeAlso: https://networkmanager.dev/docs/api/latest/gdbus-org.freedesktop.NetworkManager.html
    public static func networkManager(
        state: UInt32 = 70, connectivity: UInt32 = 4, metered: UInt32 = 2, on bus: PrivateSystemBus
    ) throws -> FakeSystemService {
        try FakeSystemService(
            busName: "org.freedesktop.NetworkManager", objectPath: "/org/freedesktop/NetworkManager",
            interface: "org.freedesktop.NetworkManager",
            properties: [
                "State": .uint32(state), "Connectivity": .uint32(connectivity), "Metered": .uint32(metered),
                "NetworkingEnabled": .boolean(true), "Version": .string("1.42.4"),
            ],
            on: bus
        )
    }

    /// Starts a service owning `busName` on `bus` with an object at `objectPath` that has
    /// `properties` on `interface`; returns once it owns the name, or throws after `startTimeout`.
    public init(
        busName: String, objectPath: String, interface: String, properties: [String: Value],
        on bus: PrivateSystemBus, startTimeout: Duration = .seconds(20)
    ) throws {
        self.busName = busName
        self.objectPath = objectPath
        self.interface = interface
        busAddress = bus.address
        directory = try TemporaryDirectory(prefix: "syncagent-service")
        let scriptPath = directory.appending("fake-service.py")
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let initial = properties.mapValues { [$0.signature, $0.jsonValue] }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: initial, options: [.sortedKeys]), as: UTF8.self)
        let logPath = directory.appending("fake-service.log")
        process = try ChildProcess(
            "/usr/bin/python3",
            arguments: [scriptPath, bus.address, busName, objectPath, interface, json],
            environment: NotificationBus.environmentWithoutSessionBus(runtimeDirectory: "/nonexistent"),
            standardError: .file(logPath)
        )
        do {
            let line = try process.readLine(timeout: startTimeout)
            guard line == "ready" else {
                throw TestSupportError("it said \"\(line)\" instead of \"ready\"")
            }
        } catch {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw TestSupportError("the fake \(busName) did not start: \(error) (log: \(log))")
        }
    }

    deinit {
        stop()
    }

    /// Changes `property` to `value` and announces it with `PropertiesChanged` (also when
    /// the value is the same, as some services do); returns once the service has sent the
    /// signal.
    public func set(_ property: String, to value: Value, timeout: Duration = .seconds(20)) throws {
        let client = try ChildProcess(
            "/usr/bin/gdbus",
            arguments: [
                "call", "--address", busAddress, "--dest", busName, "--object-path", objectPath,
                "--method", "org.syncagent.FakeService.Set", property, value.variantText,
            ],
            environment: NotificationBus.environmentWithoutSessionBus(runtimeDirectory: "/nonexistent"),
            standardError: .file(directory.appending("gdbus.log"))
        )
        defer { client.stop() }
        let reply = try client.readLine(timeout: timeout)
        guard reply == "()" else {
            throw TestSupportError("setting \(property) on the fake \(busName) answered \"\(reply)\"")
        }
    }

    /// Kills the service, so its name leaves the bus, and deletes its directory; doing it
    /// twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }
}
