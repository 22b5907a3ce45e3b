internal import CNotify

/// One libnotify notification object, kept for as long as its topic lives so that showing it
/// again replaces it on the desktop (libnotify sends its id as `replaces_id`) and its action
/// callbacks can still fire.
///
/// Owns the `NotifyNotification` GObject and unrefs it in `deinit`. libnotify is not
/// thread-safe, so an instance is used on the ``NotificationThread`` only.
final class LibnotifyNotification {
    /// What a picked action is handed: the action, and the activation token the server sent
    /// with it (for the window it opens to get focus), if any.
    typealias ActionHandler = @Sendable (DesktopNotification.Action, String?) -> Void

    private let handle: UnsafeMutablePointer<NotifyNotification>

    init() {
        guard let handle = notify_notification_new("", nil, nil) else {
            fatalError("notify_notification_new returned NULL; GLib aborts on allocation failure, so this cannot happen")
        }
        self.handle = handle
    }

    deinit {
        g_object_unref(handle)
    }

    /// Makes the object say `notification`, replacing all it said before: text, icon,
    /// category, urgency, hints and actions. `desktopEntry` is sent as the `desktop-entry`
    /// hint (the `.desktop` file's name without the suffix); `isTransient` asks the server to
    /// keep it out of its history; each action calls `onAction` when picked.
    func set(_ notification: DesktopNotification, desktopEntry: String?, isTransient: Bool, onAction: @escaping ActionHandler) {
        notify_notification_update(handle, notification.summary, notification.body, notification.iconName)
        notify_notification_clear_hints(handle)
        notify_notification_clear_actions(handle)
        if let category = notification.category {
            notify_notification_set_category(handle, category.rawValue)
        }
        notify_notification_set_urgency(handle, notification.urgency.libnotifyValue)
        if let desktopEntry {
            notify_notification_set_hint_string(handle, "desktop-entry", desktopEntry)
        }
        if let soundName = notification.soundName {
            notify_notification_set_hint_string(handle, "sound-name", soundName)
        }
        if isTransient {
            notify_notification_set_hint(handle, "transient", g_variant_new_boolean(1))
        }
        for action in notification.actions {
            let box = Unmanaged.passRetained(ActionBox(action: action, handler: onAction)).toOpaque()
            notify_notification_add_action(handle, action.key, action.label, invokeAction, box, releaseAction)
        }
    }

    /// Sends the notification to the server on the session bus (again, replacing it, if it
    /// was shown before).
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

    /// Takes the notification off the desktop (`CloseNotification`).
    func close() -> Result<Void, NotificationError> {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(handle, &error) != 0 {
            return .success(())
        }
        defer { if let error { g_error_free(error) } }
        return .failure(NotificationError(showFailure: error))
    }

    /// What the server says it can do; none when it cannot be asked (the show then fails
    /// with the reason).
    static func serverCapabilities() -> NotificationServerCapabilities {
        guard libraryIsInitialized else { return NotificationServerCapabilities([]) }
        let list = notify_get_server_caps()
        defer { g_list_free_full(list, g_free) }
        var names: [String] = []
        var node = list
        while let current = node {
            if let name = current.pointee.data { names.append(String(cString: name.assumingMemoryBound(to: CChar.self))) }
            node = current.pointee.next
        }
        return NotificationServerCapabilities(names)
    }

    /// `notify_init` runs once per process, on first use; a `static let` makes that
    /// thread-safe and keeps the app name the same for every notification.
    ///
    /// libnotify's own warnings ("Failed to connect to proxy" with no session bus) are dropped:
    /// GLib would print them raw on stderr, in its format, beside syncagent's own message for
    /// the same failure, which names the cause ("cannot reach the session bus (…)").
    private static let libraryIsInitialized: Bool = {
        g_log_set_handler("libnotify", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue), { _, _, _, _ in }, nil)
        return notify_init(LibnotifyNotifier.applicationName) != 0
    }()
}

/// One action's handler, owned by libnotify from `add_action` until the actions are cleared.
private final class ActionBox {
    let action: DesktopNotification.Action
    let handler: LibnotifyNotification.ActionHandler

    init(action: DesktopNotification.Action, handler: @escaping LibnotifyNotification.ActionHandler) {
        self.action = action
        self.handler = handler
    }
}

/// libnotify's action callback: runs on the notification thread's main loop.
private let invokeAction: NotifyActionCallback = { notification, _, box in
    let action = Unmanaged<ActionBox>.fromOpaque(box!).takeUnretainedValue()
    // Valid only while the callback runs (libnotify 0.8), so it is copied here.
    let token = notify_notification_get_activation_token(notification).map { String(cString: $0) }
    action.handler(action.action, token)
}

private let releaseAction: GFreeFunc = { box in
    Unmanaged<ActionBox>.fromOpaque(box!).release()
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
