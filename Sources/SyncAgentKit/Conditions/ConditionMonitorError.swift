/// Why a ``ConditionMonitor`` or one of its sources could not start.
///
/// Only ``ErrorCode/threadUnavailable`` reaches callers of ``ConditionMonitor/start()``:
/// a missing source is not an error there, it falls back to the documented defaults and
/// shows in ``ConditionMonitor/sources``.
public typealias ConditionMonitorError = DomainError<ConditionMonitorDomain>

/// Where a ``ConditionMonitorError`` comes from (see ``DomainError``).
public enum ConditionMonitorDomain {}

extension ErrorCode where Domain == ConditionMonitorError {
    /// GLib is not installed (see ``SharedLibrary``): nothing is watched.
    public static let noGLib = Self("no-glib")
    /// The thread that runs the monitor's main loop could not be created.
    public static let threadUnavailable = Self("thread-unavailable")
    /// The system D-Bus could not be reached.
    public static let noSystemBus = Self("no-system-bus")
    /// logind refused or could not grant a sleep inhibitor lock (``SleepInhibitor``).
    public static let inhibitRefused = Self("inhibit-refused")
    /// GIO could not create any network monitor.
    public static let noNetworkMonitor = Self("no-network-monitor")
}
