/// Shows notifications through libnotify, on the session bus, in bounded time, one living
/// notification per topic, with actions that work.
///
/// `notify_notification_show` blocks. When a server owns the name but never answers, it
/// waits out GDBus's 25-second call timeout, and libnotify 0.8.1 then reconnects and tries
/// once more: 50 seconds in all, measured. So the show runs on the ``NotificationThread``,
/// never on the caller's, and ``post(_:)`` gives up after ``timeout`` with
/// ``ErrorCode/timedOut``. With no bus or no server it fails in milliseconds with
/// ``ErrorCode/noBus`` or ``ErrorCode/noServer``.
///
/// Each post asks the server's capabilities and fits the notification to them
/// (``NotificationServerCapabilities/fitted(_:offersActions:)``). The notification shown on a
/// topic is kept: the next post on the topic replaces it, ``withdraw(_:)`` closes it, and its
/// actions run when picked — "Open Folder" and "Open" here, "Retry now" by the agent through
/// ``actions``. Without ``actions`` (`--once`, which exits after posting) no action is
/// offered and the notification is marked `transient`.
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
    /// Where picked actions go to the agent; `nil` offers no actions.
    public var actions: NotificationActions?

    /// A notifier that waits at most `timeout` for the server (more than zero).
    public init(timeout: Duration = .seconds(5), desktopEntry: String? = "syncagent", actions: NotificationActions? = nil) {
        precondition(timeout > .zero, "a notification timeout must be more than zero")
        self.timeout = timeout
        self.desktopEntry = desktopEntry
        self.actions = actions
    }

    /// Shows `notification`, or throws why it could not within ``timeout``.
    public func post(_ notification: DesktopNotification) throws(NotificationError) {
        let desktopEntry = desktopEntry
        let actions = actions
        try onThread { () -> Result<Void, NotificationError> in
            let shown = LiveNotifications.shared.notification(on: notification.topic)
            let fitted = LibnotifyNotification.serverCapabilities().fitted(notification, offersActions: actions != nil)
            shown.set(fitted, desktopEntry: desktopEntry, isTransient: actions == nil) { action, token in
                Self.perform(action, token: token, actions: actions)
            }
            return shown.show()
        }
    }

    /// Closes the notification shown on `topic`, if any.
    public func withdraw(_ topic: DesktopNotification.Topic) throws(NotificationError) {
        try onThread { () -> Result<Void, NotificationError> in
            guard let shown = LiveNotifications.shared.remove(topic) else { return .success(()) }
            return shown.close()
        }
    }

    /// Opens libnotify and GLib, once per process; every post and withdrawal starts with it.
    /// - Throws: ``ErrorCode/noLibnotify``, saying which package to install.
    public static func loadLibraries() throws(NotificationError) {
        do {
            try SharedLibrary.notify.load()
            try SharedLibrary.gio.load()
        } catch {
            throw NotificationError(.noLibnotify, error.message)
        }
    }

    private func onThread(_ work: @escaping @Sendable () -> Result<Void, NotificationError>) throws(NotificationError) {
        try Self.loadLibraries()
        let thread = try NotificationThread.shared.get()
        guard let result = thread.run(timeout: timeout, work) else {
            throw NotificationError(.timedOut, "the notification server did not answer within \(timeout.spokenSeconds)")
        }
        try result.get()
    }

    /// Runs on the notification thread, in its main loop, when the user picks `action`.
    private static func perform(_ action: DesktopNotification.Action, token: String?, actions: NotificationActions?) {
        do throws(NotificationError) {
            switch action.effect {
            case .showItems(let folder, let files): try DesktopLauncher.showItems(folder: folder, files: files, token: token)
            case .open(let file): try DesktopLauncher.open(file, token: token)
            case .retry(let files): actions?.retry(files)
            }
        } catch {
            actions?.report("\"\(action.label)\" did not work: \(error.message)")
        }
    }
}

/// The notification shown on each topic, kept so the next one replaces it and its actions
/// stay alive. Used on the ``NotificationThread`` only.
private final class LiveNotifications: @unchecked Sendable {
    static let shared = LiveNotifications()
    private var byTopic: [DesktopNotification.Topic: LibnotifyNotification] = [:]

    func notification(on topic: DesktopNotification.Topic) -> LibnotifyNotification {
        if let shown = byTopic[topic] { return shown }
        let created = LibnotifyNotification()
        byTopic[topic] = created
        return created
    }

    func remove(_ topic: DesktopNotification.Topic) -> LibnotifyNotification? {
        byTopic.removeValue(forKey: topic)
    }
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
