import Foundation
import Testing
import TestSupport

/// `ConditionMonitor` against a private system bus with fake UPower and NetworkManager
/// services, and a fake power-supply folder.
///
/// GDBus reads the system bus address once per process, so each case runs the
/// `ConditionsProbe` executable (a monitor that prints what it reports) in a process of its
/// own, pointed at a bus of its own. Nothing here talks to this machine's system services;
/// only GIO's netlink backend reads the kernel's routes, and no case depends on them.
struct ConditionMonitorTests {
    /// The callback must hear a change this soon after the service announced it.
    static let changeDeadline: Duration = .seconds(1)

    @Test func upowerOnBatteryChangesReachTheCallbackWithinASecond() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let upower = try FakeSystemService.upower(onBattery: false, on: bus)
        defer { upower.stop() }
        // The folder says battery: a monitor that reads it instead of UPower fails.
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        try folder.addAdapter(online: false)
        try folder.addBattery(status: "Discharging")

        let probe = try Probe(watching: folder, environment: bus.clientEnvironment)
        defer { probe.stop() }

        #expect(probe.sources == Probe.Sources(power: "upower", network: "netlink"))
        #expect(probe.start.power == "mains")

        try upower.set("OnBattery", to: .boolean(true))
        #expect(try probe.nextChange(within: Self.changeDeadline).power == "battery")

        // The same value again is no change; the next line must be the real one after it.
        try upower.set("OnBattery", to: .boolean(true))
        try upower.set("OnBattery", to: .boolean(false))
        #expect(try probe.nextChange(within: Self.changeDeadline).power == "mains")
    }

    @Test func withoutUPowerPowerComesFromTheFolderUntilUPowerAppears() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        try folder.addAdapter(online: false)
        try folder.addBattery(status: "Discharging")

        let probe = try Probe(watching: folder, environment: bus.clientEnvironment)
        defer { probe.stop() }
        #expect(probe.sources == Probe.Sources(power: "folder", network: "netlink"))
        #expect(probe.start.power == "battery")

        let upower = try FakeSystemService.upower(onBattery: false, on: bus)
        defer { upower.stop() }
        #expect(try probe.nextChange(within: Self.changeDeadline).power == "mains")

        upower.stop()
        #expect(try probe.nextChange(within: Self.changeDeadline).power == "battery", "UPower gone: the folder again")
    }

    @Test func networkManagerMeteredAvailabilityAndCaptivePortalReachTheCallback() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let networkManager = try FakeSystemService.networkManager(state: 70, connectivity: 4, metered: 2, on: bus)
        defer { networkManager.stop() }
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }

        let probe = try Probe(watching: folder, environment: bus.clientEnvironment)
        defer { probe.stop() }
        #expect(probe.sources == Probe.Sources(power: "folder", network: "networkmanager"))
        #expect(probe.start == Probe.Reading(power: "mains", network: "available", metering: "unmetered"))

        try networkManager.set("Metered", to: .uint32(1))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "available", metering: "metered"))

        // "guess yes" is metered too: no change; "guess no" is not.
        try networkManager.set("Metered", to: .uint32(3))
        try networkManager.set("Metered", to: .uint32(4))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "available", metering: "unmetered"))

        try networkManager.set("State", to: .uint32(20))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "unavailable", metering: "unmetered"))

        try networkManager.set("State", to: .uint32(70))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "available", metering: "unmetered"))

        // NMConnectivityState 2 is "portal": GIO's connectivity PORTAL, until someone logs in.
        try networkManager.set("Connectivity", to: .uint32(2))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "portal", metering: "unmetered"))
        try networkManager.set("Connectivity", to: .uint32(4))
        #expect(try probe.nextChange(within: Self.changeDeadline) == Probe.Reading(power: "mains", network: "available", metering: "unmetered"))
    }

    @Test func networkManagerStartingMeteredIsSeenAtStart() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let networkManager = try FakeSystemService.networkManager(state: 70, connectivity: 4, metered: 1, on: bus)
        defer { networkManager.stop() }
        let upower = try FakeSystemService.upower(onBattery: true, on: bus)
        defer { upower.stop() }
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }

        let probe = try Probe(watching: folder, environment: bus.clientEnvironment)
        defer { probe.stop() }

        #expect(probe.sources == Probe.Sources(power: "upower", network: "networkmanager"))
        #expect(probe.start == Probe.Reading(power: "battery", network: "available", metering: "metered"))
    }

    @Test func withNoSystemBusTheFolderAndNetlinkStandIn() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        try folder.addBattery(status: "Discharging")
        let clock = ContinuousClock()
        let started = clock.now

        let probe = try Probe(watching: folder, environment: bus.environmentWithoutSystemBus)
        defer { probe.stop() }

        #expect(probe.sources == Probe.Sources(power: "folder", network: "netlink"))
        #expect(probe.start.power == "battery")
        #expect(clock.now - started < .seconds(10), "a missing system bus must fail fast, not time out")
    }

    @Test func stopLeavesNoThreadOrDescriptorBehind() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let upower = try FakeSystemService.upower(onBattery: false, on: bus)
        defer { upower.stop() }
        let networkManager = try FakeSystemService.networkManager(on: bus)
        defer { networkManager.stop() }
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }

        let probe = try ChildProcess(
            try BuiltProducts.executable(named: "ConditionsProbe"),
            arguments: ["restart", folder.path, "20"],
            environment: bus.clientEnvironment
        )
        defer { probe.stop() }
        let first = try probe.readLine(timeout: .seconds(60))
        let last = try probe.readLine(timeout: .seconds(60))
        #expect(first.hasPrefix("after 1: "))
        #expect(first.hasSuffix(", 0 monitor threads"))
        #expect(last == first.replacingOccurrences(of: "after 1: ", with: "after 20: "), "threads or descriptors grew from round 1 to 20")
    }
}

/// A running `ConditionsProbe watch`, with the first two lines it printed.
private final class Probe {
    /// The "sources POWER NETWORK" line.
    struct Sources: Equatable {
        var power: String
        var network: String
    }

    /// A "start …" or "change …" line: "mains|battery available|unavailable unmetered|metered".
    struct Reading: Equatable {
        var power: String
        var network: String
        var metering: String
    }

    let sources: Sources
    let start: Reading
    private let process: ChildProcess

    /// Starts the probe with `folder` as its power-supply folder and waits for its first lines.
    init(watching folder: FakePowerSupplyFolder, environment: [String: String]) throws {
        process = try ChildProcess(
            try BuiltProducts.executable(named: "ConditionsProbe"),
            arguments: ["watch", folder.path],
            environment: environment
        )
        let sourcesWords = try Self.words(of: process.readLine(timeout: .seconds(60)), after: "sources", count: 2)
        sources = Sources(power: sourcesWords[0], network: sourcesWords[1])
        start = try Self.reading(process.readLine(timeout: .seconds(10)), after: "start")
    }

    /// The next "change" line, which must come within `deadline`.
    func nextChange(within deadline: Duration) throws -> Reading {
        try Self.reading(process.readLine(timeout: deadline), after: "change")
    }

    func stop() {
        process.stop()
    }

    private static func reading(_ line: String, after keyword: String) throws -> Reading {
        let words = try words(of: line, after: keyword, count: 3)
        return Reading(power: words[0], network: words[1], metering: words[2])
    }

    private static func words(of line: String, after keyword: String, count: Int) throws -> [String] {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == count + 1, words[0] == keyword else {
            throw TestSupportError("the probe printed \"\(line)\", expected \(keyword) and \(count) words")
        }
        return Array(words.dropFirst())
    }
}
