/// Something that can put a ``DesktopNotification`` in front of the user.
///
/// Posting never hangs: an implementation gives up after a bounded time and throws, and the
/// caller logs the error and carries on — a missing notification never stops a transfer.
public protocol Notifier: Sendable {
    /// Shows `notification`, or throws why it could not be shown; blocks for a bounded time.
    func post(_ notification: DesktopNotification) throws(NotificationError)
}
