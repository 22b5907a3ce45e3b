internal import CNotify

/// One libnotify notification object, from creation to the end of its `show`.
///
/// Owns the `NotifyNotification` GObject and unrefs it in `deinit`. libnotify is not
/// thread-safe, so an instance is used on one thread only (``LibnotifyNotifier``'s queue).
final class LibnotifyNotification {
    private let handle: UnsafeMutablePointer<NotifyNotification>

    /// Builds the libnotify object for `notification`, with a `desktop-entry` hint naming
    /// `desktopEntry` (the `.desktop` file's name without the suffix) when one is given.
    init(_ notification: DesktopNotification, desktopEntry: String?) {
        guard let handle = notify_notification_new(
            notification.summary, notification.body, notification.iconName
        ) else {
            fatalError("notify_notification_new returned NULL; GLib aborts on allocation failure, so this cannot happen")
        }
        self.handle = handle
        if let category = notification.category {
            notify_notification_set_category(handle, category.rawValue)
        }
        notify_notification_set_urgency(handle, notification.urgency.libnotifyValue)
        if let desktopEntry {
            notify_notification_set_hint_string(handle, "desktop-entry", desktopEntry)
        }
    }

    deinit {
        g_object_unref(handle)
    }

    /// Sends the notification to the server on the session bus.
    ///
    /// Blocks until the server answers; for one that owns the name but does not answer,
    /// 50 seconds (two GDBus calls of 25), so callers bound the wait (see ``LibnotifyNotifier``).
    /// - SeeAlso: https://gnome.pages.gitlab.gnome.org/libnotify/method.Notification.show.html
    func show() -> Result<Void, NotificationError> {
        guard Self.libraryIsInitialized else {
            return .failure(NotificationError(.failed, "libnotify could not be initialised"))
        }
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(handle, &error) != 0 {
            return .success(())
        }
        defer { if let error { g_error_free(error) } }
        return .failure(NotificationError(showFailure: error))
    }

    /// `notify_init` runs once per process, on first use; a `static let` makes that
    /// thread-safe and keeps the app name the same for every notification.
    private static let libraryIsInitialized: Bool = notify_init(LibnotifyNotifier.applicationName) != 0
}

extension DesktopNotification.Urgency {
    /// The value libnotify sends as the `urgency` hint.
    fileprivate var libnotifyValue: NotifyUrgency {
        switch self {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }
}
