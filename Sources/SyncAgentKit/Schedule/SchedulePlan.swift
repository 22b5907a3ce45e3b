import FoundationEssentials

/// What one scheduling round decided: which files start now, why the others wait, and when to
/// look again.
public struct SchedulePlan: Sendable, Equatable {
    /// A file that does not start now, and why.
    public struct Waiting: Sendable, Equatable {
        /// The file's ``ScheduledFile/path``.
        public var path: String
        /// Why it waits.
        public var reason: WaitReason

        /// The file at `path` waits for `reason`.
        public init(path: String, reason: WaitReason) {
            self.path = path
            self.reason = reason
        }
    }

    /// The paths of the files to start now, in the order they were given.
    public var start: [String]
    /// Every other file, in the order they were given.
    public var waiting: [Waiting]
    /// The earliest moment a waiting file can start by time alone; `nil` when none can
    /// (nothing waits, or only for conditions, whose changes wake the agent by themselves).
    public var nextWake: Date?

    /// A plan; empty by default: nothing to start, nothing waiting, no wake-up.
    public init(start: [String] = [], waiting: [Waiting] = [], nextWake: Date? = nil) {
        self.start = start
        self.waiting = waiting
        self.nextWake = nextWake
    }
}
