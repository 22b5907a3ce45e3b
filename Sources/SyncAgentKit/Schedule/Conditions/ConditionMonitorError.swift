/// Why a ``ConditionMonitor`` or one of its sources could not start.
///
/// Only ``ErrorCode/threadUnavailable`` reaches callers of ``ConditionMonitor/start()``:
/// a missing source is not an error there, it falls back to the documented defaults and
/// shows in ``ConditionMonitor/sources``.
public struct ConditionMonitorError: Error, Sendable, Equatable, CustomStringConvertible {
    public typealias Code = ErrorCode<ConditionMonitorError>

    /// The kind of failure, for code that reacts to it.
    public var code: Code
    /// One sentence without a trailing period, e.g. "cannot reach the system bus (…)".
    public var message: String

    /// An error of kind `code`, explained by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The ``message``, for logs.
    public var description: String { message }
}

extension ErrorCode where Domain == ConditionMonitorError {
    /// The thread that runs the monitor's main loop could not be created.
    public static let threadUnavailable = Self("thread-unavailable")
    /// The system D-Bus could not be reached.
    public static let noSystemBus = Self("no-system-bus")
    /// GIO could not create any network monitor.
    public static let noNetworkMonitor = Self("no-network-monitor")
}
