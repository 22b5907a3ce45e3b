internal import CGIO
import FoundationEssentials

/// A `GNetworkMonitor` of this monitor's own, made the way GIO makes its default one.
///
/// GIO's `g_network_monitor_get_default()` is a process-wide singleton that delivers its
/// signals on whichever context was the thread-default one when it was first asked for,
/// and is never freed. This type instead walks GIO's `gio-network-monitor` extension point
/// in the same order (`GIO_USE_NETWORK_MONITOR` first, then by priority: "networkmanager"
/// when NetworkManager is on the system bus, else "netlink", the kernel's routes; "portal"
/// inside a Flatpak; "base" as the last resort) and keeps the first that initialises:
/// bound to the caller's thread-default context and freed in `deinit`.
///
/// Made, used and released on one thread (``GLibMainLoopThread``).
/// - SeeAlso: https://docs.gtk.org/gio/iface.NetworkMonitor.html
final class GIONetworkMonitor {
    /// Called on the monitor's thread when availability or metering may have changed.
    var onChange: () -> Void = {}
    /// The GIO extension name of the backend in use, e.g. "networkmanager".
    let backend: String
    private let monitor: OpaquePointer
    private var handlers: [gulong] = []
    /// `network-changed` signals so far.
    fileprivate var changes = 0

    /// Makes the first backend that initialises; throws when none does.
    init() throws(ConditionMonitorError) {
        let (monitor, backend) = try Self.makeFirstWorkingBackend()
        self.monitor = monitor
        self.backend = backend
        let context = Unmanaged.passUnretained(self).toOpaque()
        let instance = UnsafeMutableRawPointer(monitor)
        handlers = [
            syncagent_signal_connect_notify(instance, "notify::network-available", networkPropertyChanged, context),
            syncagent_signal_connect_notify(instance, "notify::network-metered", networkPropertyChanged, context),
            syncagent_signal_connect_notify(instance, "notify::connectivity", networkPropertyChanged, context),
            syncagent_signal_connect_network_changed(monitor, networkChanged, context),
        ]
    }

    deinit {
        // The handlers point at this object unretained: they must go before it does.
        for handler in handlers {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), handler)
        }
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }

    /// What the monitor says now.
    var reading: ConditionReadings.Network {
        ConditionReadings.Network(
            available: g_network_monitor_get_network_available(monitor) != 0,
            metered: g_network_monitor_get_network_metered(monitor) != 0,
            needsLogin: g_network_monitor_get_connectivity(monitor) == G_NETWORK_CONNECTIVITY_PORTAL,
            changes: changes
        )
    }

    fileprivate static func from(_ data: gpointer?) -> GIONetworkMonitor {
        Unmanaged<GIONetworkMonitor>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func makeFirstWorkingBackend() throws(ConditionMonitorError) -> (OpaquePointer, String) {
        GIOModules.ensureRegistered()
        guard let point = g_io_extension_point_lookup(G_NETWORK_MONITOR_EXTENSION_POINT_NAME) else {
            throw ConditionMonitorError(.noNetworkMonitor, "GIO has no network monitor extension point")
        }
        var candidates: [OpaquePointer] = []
        var link = g_io_extension_point_get_extensions(point)
        while let node = link {
            if let extensionPointer = node.pointee.data {
                candidates.append(OpaquePointer(extensionPointer))
            }
            link = node.pointee.next
        }
        if let preferred = ProcessInfo.processInfo.environment["GIO_USE_NETWORK_MONITOR"],
           let index = candidates.firstIndex(where: { name(of: $0) == preferred }) {
            candidates.insert(candidates.remove(at: index), at: 0)
        }

        var failures: [String] = []
        for candidate in candidates {
            switch make(candidate) {
            case .success(let monitor):
                return (monitor, name(of: candidate))
            case .failure(let reason):
                failures.append("\(name(of: candidate)): \(reason)")
            }
        }
        let detail = failures.isEmpty ? "no backends are registered" : failures.joined(separator: "; ")
        throw ConditionMonitorError(.noNetworkMonitor, "GIO could not create a network monitor (\(detail))")
    }

    /// What `g_initable_new` does for one extension, which Swift cannot call (it is variadic).
    private static func make(_ extensionPointer: OpaquePointer) -> Result<OpaquePointer, FailureReason> {
        let type = g_io_extension_get_type(extensionPointer)
        guard let object = g_object_new_with_properties(type, 0, nil, nil) else {
            return .failure(FailureReason(text: "could not be created"))
        }
        if g_type_is_a(type, g_initable_get_type()) != 0 {
            var error: UnsafeMutablePointer<GError>?
            if g_initable_init(OpaquePointer(object), nil, &error) == 0 {
                defer { if let error { g_error_free(error) } }
                g_object_unref(object)
                return .failure(FailureReason(text: error?.pointee.message.map { String(cString: $0) } ?? "failed"))
            }
        }
        return .success(OpaquePointer(object))
    }

    private static func name(of extensionPointer: OpaquePointer) -> String {
        String(cString: g_io_extension_get_name(extensionPointer))
    }

    /// Why one backend did not initialise, for the message when none did.
    private struct FailureReason: Error {
        var text: String
    }
}

/// `notify::network-available` and `notify::network-metered`.
private let networkPropertyChanged: @convention(c) (
    UnsafeMutablePointer<GObject>?, UnsafeMutablePointer<GParamSpec>?, gpointer?
) -> Void = { _, _, data in
    GIONetworkMonitor.from(data).onChange()
}

/// `network-changed`: routes or NetworkManager's state changed.
private let networkChanged: @convention(c) (OpaquePointer?, gboolean, gpointer?) -> Void = { _, _, data in
    let monitor = GIONetworkMonitor.from(data)
    monitor.changes += 1
    monitor.onChange()
}

/// GIO's own extensions (and those of installed GIO modules) register themselves only
/// when GIO first needs one of its extension points.
private enum GIOModules {
    /// Makes GIO register its extensions, network monitors included, without creating the
    /// default network monitor: asking for the proxy of an unknown protocol loads and
    /// registers every module (`_g_io_modules_ensure_loaded`, which GIO does not export)
    /// and returns NULL without side effects.
    static func ensureRegistered() {
        if let proxy = g_proxy_get_default_for_protocol("syncagent-register-gio-extensions") {
            g_object_unref(UnsafeMutableRawPointer(proxy))
        }
    }
}
