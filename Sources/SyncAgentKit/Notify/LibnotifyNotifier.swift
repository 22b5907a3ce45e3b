/// Shows notifications through libnotify, on the session bus, in bounded time.
///
/// `notify_notification_show` blocks. When a server owns the name but never answers, it
/// waits out GDBus's 25-second call timeout, and libnotify 0.8.1 then reconnects and tries
/// once more: 50 seconds in all, measured. So the show runs on a thread of its own, never on
/// the caller's, and ``post(_:)`` gives up after ``timeout`` with ``ErrorCode/timedOut``.
/// With no bus or no server it fails in milliseconds with ``ErrorCode/noBus``
/// or ``ErrorCode/noServer``.
///
/// GDBus reads the session bus address once per process (`DBUS_SESSION_BUS_ADDRESS`, else
/// `$XDG_RUNTIME_DIR/bus`) and keeps that connection for the life of the process.
public struct LibnotifyNotifier: Notifier {
    /// The application name libnotify is initialised with; servers show it as the sender.
    public static let applicationName = "syncagent"

    /// How long ``post(_:)`` waits for the server before it gives up.
    public var timeout: Duration
    /// The name of the app's `.desktop` file without its suffix, sent as the `desktop-entry`
    /// hint so the desktop can show the app's icon and group its notifications; `nil` sends none.
    public var desktopEntry: String?

    /// A notifier that waits at most `timeout` for the server (more than zero).
    public init(timeout: Duration = .seconds(5), desktopEntry: String? = "syncagent") {
        precondition(timeout > .zero, "a notification timeout must be more than zero")
        self.timeout = timeout
        self.desktopEntry = desktopEntry
    }

    /// Shows `notification`, or throws why it could not within ``timeout``.
    public func post(_ notification: DesktopNotification) throws(NotificationError) {
        let desktopEntry = desktopEntry
        let result = Self.worker.run(timeout: timeout) {
            LibnotifyNotification(notification, desktopEntry: desktopEntry).show()
        }
        guard let result else {
            throw NotificationError(.timedOut, "the notification server did not answer within \(timeout.spokenSeconds)")
        }
        try result.get()
    }

    /// libnotify's state is process-wide and not thread-safe, so every show in the process
    /// runs on this one worker thread.
    private static let worker = SerialWorker(name: "syncagent-notify")
}

extension Duration {
    /// "1 second", "5 seconds", "1.5 seconds": how a log line says a timeout.
    fileprivate var spokenSeconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let (whole, rest) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if rest == 0 {
            return counted(Int(whole), "second")
        }
        var digits = String(rest)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") {
            digits.removeLast()
        }
        return "\(whole).\(digits) seconds"
    }
}
