import FoundationEssentials
import Glibc

/// Reads `/sys/class/power_supply` and decides whether the machine runs on mains power.
///
/// This is the fallback for machines without UPower. It has no change notification: the
/// kernel announces power changes as uevents, not as anything a program can wait on in
/// this folder. ``ConditionMonitor`` therefore reads it afresh whenever its conditions
/// are asked for, and the agent asks each time its loop wakes — for a transfer, a timer or
/// a command — so a plug pulled while the agent sleeps counts from its next wake-up.
struct PowerSupplyFolder: Sendable {
    /// Where Linux lists the power supplies it knows.
    static let systemPath = "/sys/class/power_supply"

    /// The folder read; tests point it at fake folders.
    let path: String

    init(path: String = Self.systemPath) {
        self.path = path
    }

    /// Every entry in the folder, sorted by name; none when the folder cannot be read.
    func supplies() -> [PowerSupply] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().compactMap { name in
            let entry = "\(path)/\(name)"
            guard let type = attribute("type", of: entry) else { return nil }
            return PowerSupply(
                name: name,
                kind: PowerSupply.Kind(sysfsValue: type),
                online: flag("online", of: entry),
                present: flag("present", of: entry),
                status: attribute("status", of: entry).flatMap(PowerSupply.Status.init(rawValue:)),
                scope: attribute("scope", of: entry).flatMap(PowerSupply.Scope.init(rawValue:))
            )
        }
    }

    /// Whether the machine runs on mains power now, from a fresh read of the folder.
    var onMainsPower: Bool {
        Self.onMainsPower(supplies())
    }

    /// Whether `supplies` say the machine runs on mains power.
    ///
    /// Battery needs evidence: a battery (or UPS) of the machine's own that is discharging,
    /// or one that is present while every adapter the kernel lists is offline. Line power
    /// that is online wins over a discharging battery, as in UPower (a weak USB-C charger
    /// can leave a battery draining while plugged in; that is still mains for our purpose).
    /// Everything else — no supplies at all (a desktop, a virtual machine), a battery that
    /// is charging or full with no adapter listed, unreadable files — counts as mains, so
    /// discretionary work is never held back forever on a machine that cannot tell.
    static func onMainsPower(_ supplies: [PowerSupply]) -> Bool {
        let linePower = supplies.filter(\.kind.isLinePower)
        let storedEnergy = supplies.filter(\.isSystemStoredEnergy)
        if linePower.contains(where: { $0.online == true }) {
            return true
        }
        if storedEnergy.contains(where: { $0.status == .discharging }) {
            return false
        }
        let everyAdapterOffline = !linePower.isEmpty && linePower.allSatisfy { $0.online == false }
        return !(everyAdapterOffline && !storedEnergy.isEmpty)
    }

    /// The first line of `name` in `entry`, trimmed; nil when missing or empty.
    private func attribute(_ name: String, of entry: String) -> String? {
        guard let text = try? String(contentsOfFile: "\(entry)/\(name)", encoding: .utf8) else { return nil }
        let value = text.split(separator: "\n", maxSplits: 1).first.map {
            String($0.trimmingSpaces())
        } ?? ""
        return value.isEmpty ? nil : value
    }

    /// A "0"/"1" attribute; nil when missing or anything else.
    private func flag(_ name: String, of entry: String) -> Bool? {
        switch attribute(name, of: entry) {
        case "1": true
        case "0": false
        default: nil
        }
    }
}
