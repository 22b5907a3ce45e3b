import Synchronization
import Testing
import TestSupport
@testable import SyncAgentKit

/// `ConditionPublisher`: what callers read, and which updates reach the callback.
struct ConditionPublisherTests {
    static let upower = ConditionSources(power: .upower, network: .gio(backend: "netlink"))
    static let online = ConditionReadings.Network(available: true, metered: false)

    @Test func theCallbackHearsOnlyRealChangesInOrder() throws {
        let heard = Mutex<[Conditions]>([])
        let publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: "/nonexistent")) { conditions in
            heard.withLock { $0.append(conditions) }
        }

        publisher.start(with: ConditionReadings(upowerOnBattery: false, network: Self.online), from: Self.upower)
        publisher.update(with: ConditionReadings(upowerOnBattery: false, network: Self.online), from: Self.upower)
        publisher.update(with: ConditionReadings(upowerOnBattery: true, network: Self.online), from: Self.upower)
        publisher.update(with: ConditionReadings(upowerOnBattery: true, network: Self.online), from: Self.upower)
        publisher.update(with: ConditionReadings(upowerOnBattery: true, network: .init(available: true, metered: true)), from: Self.upower)
        publisher.update(with: ConditionReadings(upowerOnBattery: false, network: Self.online), from: Self.upower)

        #expect(heard.withLock { $0 } == [
            Conditions(onMainsPower: false, networkAvailable: true, networkMetered: false),
            Conditions(onMainsPower: false, networkAvailable: true, networkMetered: true),
            Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false),
        ])
        #expect(publisher.current == Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false))
    }

    @Test func startingIsNotAChange() {
        let heard = Mutex(0)
        let publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: "/nonexistent")) { _ in
            heard.withLock { $0 += 1 }
        }

        publisher.start(with: ConditionReadings(upowerOnBattery: true, network: Self.online), from: Self.upower)

        #expect(heard.withLock { $0 } == 0)
        #expect(publisher.current.onMainsPower == false)
        #expect(publisher.sources == Self.upower)
    }

    @Test func withoutUPowerEveryReadLooksAtTheFolderAgain() throws {
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        try folder.addAdapter(online: true)
        try folder.addBattery(status: "Charging")
        let heard = Mutex(0)
        let publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: folder.path)) { _ in
            heard.withLock { $0 += 1 }
        }
        let sources = ConditionSources(power: .powerSupplyFolder(path: folder.path, reason: "UPower is not running"), network: .gio(backend: "netlink"))
        publisher.start(with: ConditionReadings(upowerOnBattery: nil, network: Self.online), from: sources)
        #expect(publisher.current.onMainsPower)

        try folder.addAdapter(online: false)
        try folder.addBattery(status: "Discharging")

        #expect(!publisher.current.onMainsPower)
        #expect(heard.withLock { $0 } == 0, "reading is not a change the monitor noticed by itself")
    }

    @Test func aChangeSeenWithTheFolderIsReportedWithTheNextUpdate() throws {
        let folder = try FakePowerSupplyFolder()
        defer { folder.remove() }
        let heard = Mutex<[Conditions]>([])
        let publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: folder.path)) { conditions in
            heard.withLock { $0.append(conditions) }
        }
        publisher.start(with: ConditionReadings(upowerOnBattery: nil, network: Self.online), from: Self.upower)

        try folder.addBattery(status: "Discharging")
        publisher.update(with: ConditionReadings(upowerOnBattery: nil, network: .init(available: false, metered: false)), from: Self.upower)

        #expect(heard.withLock { $0 } == [Conditions(onMainsPower: false, networkAvailable: false, networkMetered: false)])
    }

    @Test func beforeStartTheFolderAndNetworkDefaultsApply() throws {
        let publisher = ConditionPublisher(powerSupplies: PowerSupplyFolder(path: "/nonexistent")) { _ in }

        #expect(publisher.current == Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false))
        guard case .powerSupplyFolder(let path, _) = publisher.sources.power else {
            Issue.record("power should come from the folder before start, got \(publisher.sources.power)")
            return
        }
        #expect(path == "/nonexistent")
    }
}
