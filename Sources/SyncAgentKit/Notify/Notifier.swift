/// Something that can put a ``DesktopNotification`` in front of the user.
///
/// Posting never hangs: an implementation gives up after a bounded time and throws, and the
/// caller logs the error and carries on — a missing notification never stops a transfer.
public protocol Notifier: Sendable {
    /// Shows `notification`, replacing the one shown before on its topic, or throws why it
    /// could not be shown; blocks for a bounded time.
    func post(_ notification: DesktopNotification) throws(NotificationError)
    /// Takes the notification on `topic` off the desktop, if one is shown; blocks for a
    /// bounded time.
    func withdraw(_ topic: DesktopNotification.Topic) throws(NotificationError)
}
