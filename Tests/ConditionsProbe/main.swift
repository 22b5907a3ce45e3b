// Runs a ConditionMonitor and prints what it reports, one line at a time.
//
// The condition tests run this once per case against a private system bus of their own:
// GDBus reads the system bus address once per process, and GIO picks its network monitor
// backend once per monitor, from what is on that bus at the time.
//
// Usage:
//   ConditionsProbe watch FOLDER
//     Starts a monitor that reads power supplies from FOLDER when UPower is absent. Prints
//     "sources POWER NETWORK" (POWER: "upower" or "folder"; NETWORK: the GIO backend or
//     "none"), then "start CONDITIONS", then "change CONDITIONS" for each callback, where
//     CONDITIONS is "mains|battery available|portal|unavailable unmetered|metered" ("portal":
//     available, but a captive portal wants a login). A callback whose conditions read the same
//     as the last line (a `network-changed` that changed none of these) prints nothing.
//     Runs until killed.
//   ConditionsProbe restart FOLDER COUNT
//     Starts and stops a monitor COUNT times, then prints "after N: T threads, D descriptors,
//     M monitor threads" for the first and the last round and exits. It holds the shared
//     system bus connection throughout: GDBus closes a released connection on its worker
//     thread a moment later, which would make the counts race. A GLib object the monitor
//     leaked still shows, as it keeps that round's main context and its wakeup descriptor.
import CGIO
import Foundation
import Synchronization
@_spi(Testing) import SyncAgentKit

/// Writes one line to stdout at once (no buffering: the test reads as lines come).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func text(_ conditions: Conditions) -> String {
    [
        conditions.onMainsPower ? "mains" : "battery",
        !conditions.networkAvailable ? "unavailable" : conditions.networkNeedsLogin ? "portal" : "available",
        conditions.networkMetered ? "metered" : "unmetered",
    ].joined(separator: " ")
}

func text(_ sources: ConditionSources) -> String {
    let power = switch sources.power {
    case .upower: "upower"
    case .powerSupplyFolder: "folder"
    }
    let network = switch sources.network {
    case .gio(let backend): backend
    case .none: "none"
    }
    return "\(power) \(network)"
}

/// The names (`comm`) of this process's threads.
func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.map { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

func descriptorCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}

/// A reference to GDBus's shared system bus connection, if there is a system bus.
final class SystemBusConnection {
    private let connection: OpaquePointer?

    init() {
        connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, nil)
    }

    deinit {
        if let connection {
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: ConditionsProbe watch FOLDER | restart FOLDER COUNT\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("watch", 2):
    let lastSaid = Mutex<String?>(nil)
    let monitor = ConditionMonitor(powerSupplyFolder: arguments[1]) { conditions in
        let line = text(conditions)
        guard lastSaid.withLock({ said in defer { said = line }; return said != line }) else { return }
        say("change \(line)")
    }
    try monitor.start()
    lastSaid.withLock { $0 = text(monitor.current) }
    FileHandle.standardError.write(Data("ConditionsProbe: \(monitor.sources)\n".utf8))
    say("sources \(text(monitor.sources))")
    say("start \(text(monitor.current))")
    while true {
        pause()
    }
case ("restart", 3):
    guard let count = Int(arguments[2]), count >= 1 else { usage() }
    let heldConnection = SystemBusConnection()
    for round in 1...count {
        let monitor = ConditionMonitor(powerSupplyFolder: arguments[1]) { _ in }
        try monitor.start()
        monitor.stop()
        if round == 1 || round == count {
            let names = threadNames()
            let monitorThreads = names.filter { $0 == "syncagent-cond" }.count
            say("after \(round): \(names.count) threads, \(descriptorCount()) descriptors, \(monitorThreads) monitor threads")
        }
    }
    withExtendedLifetime(heldConnection) {}
default:
    usage()
}
