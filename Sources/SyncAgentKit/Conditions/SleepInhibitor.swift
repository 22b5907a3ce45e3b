import Glibc

/// A logind inhibitor lock that delays suspend while a batch the user asked for finishes:
/// `Inhibit("sleep", "syncagent", why, "delay")` on the system bus. logind then holds a
/// suspend back until the lock is released (at most its `InhibitDelayMaxSec`, 5 s by
/// default), so what is finishing is committed first. The lock is a file descriptor: it
/// holds while open, and ``release()`` (or `deinit`) closes it.
///
/// The call goes through a ``SystemBusConnection`` of our own, not GIO: loading GLib, GObject
/// and GIO for it cost `--once` 2.9 MiB of its peak memory (a 10,000-file fetch's tenth) and
/// their start-up work, for one call on a connection closed at once.
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
    public convenience init(why: String) throws(ConditionMonitorError) {
        try self.init(why: why, bus: .systemBus())
    }

    /// Takes the lock through the bus at `bus`.
    init(why: String, bus: DBusAddress) throws(ConditionMonitorError) {
        let deadline = ContinuousClock.now + .milliseconds(Self.callTimeout)
        let (reply, fds): (DBusMessage, [Int32])
        do throws(SystemBusConnection.Failure) {
            let connection = try SystemBusConnection(address: bus, deadline: deadline)
            (reply, fds) = try connection.call(
                destination: "org.freedesktop.login1", path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                member: "Inhibit", arguments: ["sleep", "syncagent", why, "delay"], noAutoStart: true)
        } catch {
            switch error {
            case .unreachable(let reason):
                throw ConditionMonitorError(.noSystemBus, "cannot reach the system bus (\(reason))")
            case .broken(let reason):
                throw ConditionMonitorError(.inhibitRefused, "logind did not grant a sleep delay (\(reason))")
            case .answered(let name, let message):
                throw ConditionMonitorError(.inhibitRefused, "logind did not grant a sleep delay (\(name)\(message.map { ": " + $0 } ?? ""))")
            }
        }
        // The lock is the descriptor the reply's handle names; any other is not ours to keep.
        let index = reply.signature == "h" ? reply.firstUInt32.map(Int.init) : nil
        for (place, fd) in fds.enumerated() where place != index { close(fd) }
        guard let index, fds.indices.contains(index) else {
            throw ConditionMonitorError(.inhibitRefused, "logind answered Inhibit without a lock")
        }
        descriptor = fds[index]
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
}
