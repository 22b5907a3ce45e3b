import Foundation

/// A folder laid out like `/sys/class/power_supply`, with the entries a test writes, for
/// code that reads power supplies from an injectable path.
///
/// Each entry is a folder with one file per attribute (`type`, `online`, `status`, …),
/// each holding the value and a newline, as the kernel shows them.
public final class FakePowerSupplyFolder: Sendable {
    /// The folder to hand to the code under test.
    public var path: String { directory.path }
    private let directory: TemporaryDirectory

    /// An empty folder: a machine with no power supplies the kernel knows about.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "syncagent-power")
    }

    /// Writes entry `name` with `attributes` (file name → value), replacing any entry of
    /// that name, e.g. `add("AC", ["type": "Mains", "online": "1"])`.
    public func add(_ name: String, _ attributes: [String: String]) throws {
        let entry = directory.appending(name)
        try? FileManager.default.removeItem(atPath: entry)
        try FileManager.default.createDirectory(atPath: entry, withIntermediateDirectories: false)
        for (attribute, value) in attributes {
            try (value + "\n").write(toFile: "\(entry)/\(attribute)", atomically: true, encoding: .utf8)
        }
    }

    /// An AC adapter, online or not.
    public func addAdapter(_ name: String = "AC", online: Bool) throws {
        try add(name, ["type": "Mains", "online": online ? "1" : "0"])
    }

    /// A battery of the machine's own with `status` ("Charging", "Discharging", "Full", …).
    public func addBattery(_ name: String = "BAT0", status: String) throws {
        try add(name, ["type": "Battery", "status": status, "present": "1", "scope": "System"])
    }

    /// Deletes the folder; doing it twice is harmless.
    public func remove() {
        directory.remove()
    }
}
