import FoundationEssentials

/// The one thread every libnotify call of the process runs on, and callers that stop waiting
/// for a call at a deadline.
///
/// libnotify's state is process-wide and not thread-safe, and it delivers action callbacks
/// only to a thread whose thread-default `GMainContext` runs a main loop: so the thread runs
/// one (``GLibMainLoopThread``), which sleeps in `poll` with no timeout while nothing happens —
/// an idle agent still never wakes. A blocking call cannot be interrupted: it runs to its end
/// and its result is dropped if the deadline came first; a call still waiting its turn at its
/// deadline is skipped.
final class NotificationThread: Sendable {
    private let loop: GLibMainLoopThread

    private init() throws(NotificationError) {
        do {
            loop = try GLibMainLoopThread(name: "syncagent-notify") { () }
        } catch {
            throw NotificationError(.failed, "cannot start the thread that shows notifications")
        }
    }

    /// The process's notification thread, started on first use.
    static let shared: Result<NotificationThread, NotificationError> = Result { () throws(NotificationError) in try NotificationThread() }

    /// Runs `work` on the thread and returns its result, or `nil` once `timeout` has passed
    /// without one.
    func run<Value: Sendable>(timeout: Duration, _ work: @escaping @Sendable () -> Value) -> Value? {
        let settlement = Settlement<Value>()
        loop.invoke {
            guard !settlement.isAbandoned else { return }
            settlement.settle(work())
        }
        return settlement.wait(until: Date().addingTimeInterval(timeout.timeInterval))
    }

    /// Runs `work` on the thread later, without waiting for it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        loop.invoke(work)
    }
}
