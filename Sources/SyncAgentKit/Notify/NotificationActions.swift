import Synchronization

/// Where the actions a user picks on a notification reach the agent: "Retry now" is the
/// agent's to do (its loop starts the files), and what the desktop could not open is the
/// agent's to log. Filled on the notification thread, emptied on the agent's loop thread,
/// which ``wake`` wakes.
public final class NotificationActions: Sendable {
    /// What is waiting for the agent.
    public struct Pending: Sendable, Equatable {
        /// Absolute paths of files to start again now.
        public var retries: [String] = []
        /// Actions that could not be done, for the log.
        public var problems: [String] = []
    }

    private let pending = Mutex(Pending())
    private let wake: Mutex<(@Sendable () -> Void)?> = Mutex(nil)

    public init() {}

    /// Has `wake` called whenever something arrives (the agent's waker).
    public func onArrival(_ wake: @escaping @Sendable () -> Void) {
        self.wake.withLock { $0 = wake }
    }

    /// Everything that arrived since the last call.
    public func take() -> Pending {
        pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
    }

    func retry(_ files: [String]) {
        pending.withLock { $0.retries += files }
        wake.withLock { $0 }?()
    }

    func report(_ problem: String) {
        pending.withLock { $0.problems.append(problem) }
        wake.withLock { $0 }?()
    }
}
