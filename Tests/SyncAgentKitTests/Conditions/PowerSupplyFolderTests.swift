import Testing
import TestSupport
@testable import SyncAgentKit

/// `PowerSupplyFolder` against folders laid out like `/sys/class/power_supply`.
struct PowerSupplyFolderTests {
    /// A machine's power supplies and what they must amount to.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var entries: [String: [String: String]]
        var onMainsPower: Bool

        var testDescription: String { name }
    }

    static let adapterOnline = ["type": "Mains", "online": "1"]
    static let adapterOffline = ["type": "Mains", "online": "0"]

    static func battery(_ status: String) -> [String: String] {
        ["type": "Battery", "status": status, "present": "1"]
    }

    static let cases = [
        Case(name: "no supplies at all: a desktop or a virtual machine", entries: [:], onMainsPower: true),
        Case(name: "AC adapter online, no battery", entries: ["AC": adapterOnline], onMainsPower: true),
        Case(name: "AC adapter offline, no battery: nothing to run from but mains", entries: ["AC": adapterOffline], onMainsPower: true),
        Case(name: "laptop plugged in, charging", entries: ["AC": adapterOnline, "BAT0": battery("Charging")], onMainsPower: true),
        Case(name: "laptop plugged in, full", entries: ["AC": adapterOnline, "BAT0": battery("Full")], onMainsPower: true),
        Case(name: "laptop plugged in, battery held at a threshold", entries: ["AC": adapterOnline, "BAT0": battery("Not charging")], onMainsPower: true),
        Case(
            name: "weak charger online while the battery drains: line power wins, as in UPower",
            entries: ["AC": adapterOnline, "BAT0": battery("Discharging")], onMainsPower: true
        ),
        Case(name: "laptop unplugged, discharging", entries: ["AC": adapterOffline, "BAT0": battery("Discharging")], onMainsPower: false),
        Case(name: "battery discharging, no adapter listed", entries: ["BAT0": battery("Discharging")], onMainsPower: false),
        Case(name: "adapter offline, battery status unknown", entries: ["AC": adapterOffline, "BAT0": battery("Unknown")], onMainsPower: false),
        Case(name: "battery charging, no adapter listed", entries: ["BAT0": battery("Charging")], onMainsPower: true),
        Case(
            name: "USB-C charger online, battery charging",
            entries: ["ucsi-source-psy-USBC000:001": ["type": "USB", "online": "1"], "BAT0": battery("Charging")], onMainsPower: true
        ),
        Case(
            name: "USB-C port offline, battery discharging",
            entries: ["ucsi-source-psy-USBC000:001": ["type": "USB", "online": "0"], "BAT0": battery("Discharging")], onMainsPower: false
        ),
        Case(name: "UPS discharging: the mains is out", entries: ["ups": ["type": "UPS", "status": "Discharging"]], onMainsPower: false),
        Case(name: "UPS charging", entries: ["ups": ["type": "UPS", "status": "Charging", "online": "1"]], onMainsPower: true),
        Case(
            name: "a wireless mouse's battery discharging is not the machine's",
            entries: ["hidpp_battery_0": ["type": "Battery", "status": "Discharging", "scope": "Device"]], onMainsPower: true
        ),
        Case(
            name: "mouse discharging beside a laptop on AC",
            entries: [
                "AC": adapterOnline, "BAT0": battery("Full"),
                "hidpp_battery_0": ["type": "Battery", "status": "Discharging", "scope": "Device"],
            ],
            onMainsPower: true
        ),
        Case(
            name: "empty battery bay and adapter offline",
            entries: ["AC": adapterOffline, "BAT1": ["type": "Battery", "present": "0", "status": "Unknown"]], onMainsPower: true
        ),
        Case(
            name: "second battery discharging while the first is full",
            entries: ["AC": adapterOffline, "BAT0": battery("Full"), "BAT1": battery("Discharging")], onMainsPower: false
        ),
        Case(name: "an entry without a type is ignored", entries: ["junk": ["status": "Discharging"]], onMainsPower: true),
        Case(name: "unreadable online value proves nothing", entries: ["AC": ["type": "Mains", "online": "maybe"], "BAT0": battery("Charging")], onMainsPower: true),
    ]

    @Test(arguments: cases)
    func decidesMainsOrBattery(_ machine: Case) throws {
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        for (name, attributes) in machine.entries {
            try folder.add(name, attributes)
        }

        #expect(PowerSupplyFolder(path: folder.path).onMainsPower == machine.onMainsPower)
    }

    @Test func readsEachEntrysAttributes() throws {
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        try folder.add("AC", ["type": "Mains", "online": "1"])
        try folder.add("BAT0", ["type": "Battery", "status": "Not charging", "present": "1", "scope": "System", "capacity": "80"])
        try folder.add("hid-mouse", ["type": "Battery", "status": "Discharging", "scope": "Device"])
        try folder.add("ucsi", ["type": "USB_PD", "online": "0"])

        let supplies = PowerSupplyFolder(path: folder.path).supplies()

        #expect(supplies == [
            PowerSupply(name: "AC", kind: .mains, online: true, present: nil, status: nil, scope: nil),
            PowerSupply(name: "BAT0", kind: .battery, online: nil, present: true, status: .notCharging, scope: .system),
            PowerSupply(name: "hid-mouse", kind: .battery, online: nil, present: nil, status: .discharging, scope: .device),
            PowerSupply(name: "ucsi", kind: .usb, online: false, present: nil, status: nil, scope: nil),
        ])
    }

    @Test func aMissingFolderMeansMains() {
        let folder = PowerSupplyFolder(path: "/nonexistent/power_supply")

        #expect(folder.supplies().isEmpty)
        #expect(folder.onMainsPower)
    }

    @Test func eachReadSeesTheFolderAsItIsNow() throws {
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        let reader = PowerSupplyFolder(path: folder.path)
        try folder.addAdapter(online: true)
        try folder.addBattery(status: "Charging")
        #expect(reader.onMainsPower)

        try folder.addAdapter(online: false)
        try folder.addBattery(status: "Discharging")

        #expect(!reader.onMainsPower)
    }
}
