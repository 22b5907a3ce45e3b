internal import CGIO
import Glibc

/// A logind inhibitor lock that delays suspend while a batch the user asked for finishes:
/// `Inhibit("sleep", "syncagent", why, "delay")` on the system bus. logind then holds a
/// suspend back until the lock is released (at most its `InhibitDelayMaxSec`, 5 s by
/// default), so what is finishing is committed first. The lock is a file descriptor: it
/// holds while open, and ``release()`` (or `deinit`) closes it.
///
/// Only for work the user asked for (`--once`, `start`): discretionary work never keeps the
/// machine awake.
/// - SeeAlso: https://www.freedesktop.org/wiki/Software/systemd/inhibit/
public final class SleepInhibitor {
    private var descriptor: Int32?

    /// What logind shows (`systemd-inhibit --list`) for a batch the user asked for.
    public static let requestedDownloads = "finishing the downloads you asked for"

    /// Takes the lock; throws when logind cannot be asked (no system bus, no logind, refused),
    /// which costs the user nothing but the delay. Blocks while the bus answers, at most
    /// ``callTimeout``.
    public init(why: String) throws(ConditionMonitorError) {
        try ConditionMonitor.loadGLib()
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
            throw ConditionMonitorError(.noSystemBus, "cannot reach the system bus (\(Self.take(error)))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let arguments = ["sleep", "syncagent", why, "delay"].map { text in text.withCString { g_variant_new_string($0) } }
        let parameters = arguments.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        var fds: UnsafeMutablePointer<GUnixFDList>?
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            bus, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
            parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, Self.callTimeout, nil, &fds, nil, &error
        ) else {
            throw ConditionMonitorError(.inhibitRefused, "logind did not grant a sleep delay (\(Self.take(error)))")
        }
        defer {
            g_variant_unref(reply)
            if let fds { g_object_unref(fds) }
        }
        guard g_variant_n_children(reply) == 1, let handle = g_variant_get_child_value(reply, 0) else {
            throw ConditionMonitorError(.inhibitRefused, "logind answered Inhibit without a lock")
        }
        let index = g_variant_get_handle(handle)
        g_variant_unref(handle)
        guard let fds else { throw ConditionMonitorError(.inhibitRefused, "logind answered Inhibit without a lock") }
        let fd = g_unix_fd_list_get(fds, index, &error)
        guard fd >= 0 else {
            throw ConditionMonitorError(.inhibitRefused, "logind's sleep delay could not be kept (\(Self.take(error)))")
        }
        descriptor = fd
    }

    deinit {
        release()
    }

    /// The longest the Inhibit call may take: a bus that never answers must not hold a batch.
    static let callTimeout: Int32 = 2_000

    /// Lets a suspend go ahead; doing it twice is harmless.
    public func release() {
        if let descriptor { close(descriptor) }
        descriptor = nil
    }

    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error?.pointee.message.map { String(cString: $0) } ?? "no details"
    }
}
