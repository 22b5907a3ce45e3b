import Foundation
@testable import SyncAgentKit

/// Keeps every notification posted, and lets a test wait for the next one.
final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let condition = NSCondition()
    private var posted: [DesktopNotification] = []

    func post(_ notification: DesktopNotification) throws(NotificationError) {
        condition.withLock {
            posted.append(notification)
            condition.broadcast()
        }
    }

    /// Every notification so far, oldest first.
    var notifications: [DesktopNotification] { condition.withLock { posted } }

    /// Waits until `count` notifications were posted (up to `limit`); returns them all.
    func waitFor(_ count: Int, within limit: TimeInterval = 10) -> [DesktopNotification] {
        let deadline = Date().addingTimeInterval(limit)
        return condition.withLock {
            while posted.count < count, condition.wait(until: deadline) {}
            return posted
        }
    }
}
