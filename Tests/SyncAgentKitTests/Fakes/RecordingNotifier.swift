import Foundation
@testable import SyncAgentKit

/// Keeps every notification posted and every topic withdrawn, and lets a test wait for the next one.
final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let condition = NSCondition()
    private var posted: [DesktopNotification] = []
    private var withdrawn: [DesktopNotification.Topic] = []

    func post(_ notification: DesktopNotification) throws(NotificationError) {
        condition.withLock {
            posted.append(notification)
            condition.broadcast()
        }
    }

    func withdraw(_ topic: DesktopNotification.Topic) throws(NotificationError) {
        condition.withLock {
            withdrawn.append(topic)
            condition.broadcast()
        }
    }

    /// Every topic withdrawn so far, oldest first.
    var withdrawnTopics: [DesktopNotification.Topic] { condition.withLock { withdrawn } }

    /// Waits until `count` topics were withdrawn (up to `limit`); returns them all.
    func waitForWithdrawals(_ count: Int, within limit: TimeInterval = 10) -> [DesktopNotification.Topic] {
        let deadline = Date().addingTimeInterval(limit)
        return condition.withLock {
            while withdrawn.count < count, condition.wait(until: deadline) {}
            return withdrawn
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
