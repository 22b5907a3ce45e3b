/// What the notification server on the bus says it can do (`GetCapabilities`), and a
/// notification fitted to it.
///
/// - SeeAlso: https://specifications.freedesktop.org/notification-spec/latest/protocol.html#command-get-capabilities
struct NotificationServerCapabilities: Sendable, Equatable {
    /// The capability names, e.g. "actions", "body-markup", "sound".
    var names: Set<String>

    init(_ names: some Sequence<String>) {
        self.names = Set(names)
    }

    /// Buttons and the default action are shown (dunst in its menu, GNOME Shell, xfce4-notifyd).
    var showsActions: Bool { names.contains("actions") }
    /// The body is read as a subset of markup, so `&` and `<` in plain text must be escaped.
    var readsBodyMarkup: Bool { names.contains("body-markup") }
    /// The server plays the `sound-name` hint (GNOME Shell; not dunst or xfce4-notifyd).
    var playsSounds: Bool { names.contains("sound") }

    /// `notification` as this server should get it: the body escaped where it is read as
    /// markup (a title such as "R&D <draft>" would otherwise break it, or vanish), actions
    /// only where they are shown and `offersActions` (a process that exits after posting
    /// cannot serve them), a sound only where one is played.
    func fitted(_ notification: DesktopNotification, offersActions: Bool) -> DesktopNotification {
        var fitted = notification
        if readsBodyMarkup { fitted.body = NotificationMarkup.escaped(notification.body) }
        if !(showsActions && offersActions) { fitted.actions = [] }
        if !playsSounds { fitted.soundName = nil }
        return fitted
    }
}

/// Plain text made safe for a notification body the server reads as markup.
enum NotificationMarkup {
    /// `text` with `&`, `<` and `>` as entities. Quotes stay: they mean nothing outside a
    /// tag, and not every server knows `&apos;`.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
