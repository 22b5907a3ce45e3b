import FoundationEssentials

/// One file as the ``Scheduler`` sees it: its schedule and what the state says about it.
///
/// From the state: `existsOnDisk` from the disk; ``lastCheck`` from ``FileRecord/lastResult``
/// (downloaded or unchanged: ``LastCheck/succeeded(_:)``), with ``FileRecord/nextAttempt`` as
/// the retry of a transient failure. Files being transferred right now are not scheduled.
public struct ScheduledFile: Sendable, Equatable {
    /// How the last completed check of a file ended.
    public enum LastCheck: Sendable, Equatable {
        /// Downloaded, or found unchanged, at this moment.
        case succeeded(Date)
        /// Failed at this moment in a way a retry may fix (reset, timeout, 5xx, 429), with
        /// the retry that is pending (see ``RetryBackoff/nextAttempt(after:failedAttempts:at:unitRandom:)``);
        /// no retry means it may be tried at once.
        case failedTransiently(Date, retry: PendingRetry?)
        /// Failed at this moment in a way a retry cannot fix (404, checksum mismatch, TLS):
        /// not tried again before its next `every`.
        case failedPermanently(Date)

        /// When the check ended.
        public var date: Date {
            switch self {
            case .succeeded(let date), .failedTransiently(let date, _), .failedPermanently(let date): date
            }
        }
    }

    /// The absolute path the file is kept at; it names the file in the ``SchedulePlan``.
    public var path: String
    /// The file's effective schedule (``Manifest/Entry/schedule``).
    public var schedule: Manifest.Schedule
    /// Whether a version of the file is in place.
    public var existsOnDisk: Bool
    /// How the last check ended; `nil` when it was never checked (or the state was lost).
    public var lastCheck: LastCheck?
    /// Whether the user asked for this file now (`--once`, "start"). Such a request ignores
    /// the schedule, the window, conditions and syncagent's own backoff; only a server's
    /// pending `Retry-After` still holds it back.
    public var requestedByUser: Bool

    /// A file to schedule; see each property.
    public init(path: String, schedule: Manifest.Schedule, existsOnDisk: Bool, lastCheck: LastCheck?, requestedByUser: Bool = false) {
        self.path = path
        self.schedule = schedule
        self.existsOnDisk = existsOnDisk
        self.lastCheck = lastCheck
        self.requestedByUser = requestedByUser
    }
}
