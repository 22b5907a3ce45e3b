/// Decides what a finished batch says on the desktop — the one policy for `--once` and the
/// agent alike.
///
/// - Failures new in this batch: the failure summary (``DesktopNotification/batchSummary(of:destination:)``).
///   A failure already told with the same reason is not new: a file that keeps failing the
///   same way on its retries is not announced again until something changes.
/// - Files downloaded and nothing failing anywhere in the manifest: "All files have been
///   downloaded!".
/// - Files downloaded while others still fail (in this batch, already told, or from an earlier
///   batch): never a claim of success, but "1 new file · 1 still failing" with the reasons
///   (``DesktopNotification/progressWithFailures(downloaded:failing:destination:)``).
/// - Nothing downloaded and nothing newly failed: silence. A check that found nothing new
///   says nothing.
///
/// `--once` uses a new announcer for its one batch; the agent keeps one for its life.
public struct BatchAnnouncer: Sendable {
    /// What an announcement decided, for the log as well as the desktop.
    public struct Announcement: Sendable, Equatable {
        /// What to show; `nil` when the batch is not worth a notification.
        public var notification: DesktopNotification?
        /// Files the batch put in place.
        public var downloaded: Int
        /// Failures not told before.
        public var newFailures: Int
    }

    /// Failures already told, reason by path.
    private var toldFailures: [String: String] = [:]

    public init() {}

    /// The announcement for `report`; remembers its failures as told.
    public mutating func announce(_ report: BatchReport) -> Announcement {
        var downloaded: [FileResult] = []
        var failed: [FileResult] = []
        var newFailures = 0
        for result in report.results {
            switch result.outcome {
            case .downloaded:
                downloaded.append(result)
                toldFailures[result.path] = nil
            case .unchanged:
                toldFailures[result.path] = nil
            case .failed(let failure):
                failed.append(result)
                if toldFailures.updateValue(failure.message, forKey: result.path) != failure.message { newFailures += 1 }
            }
        }
        let notification: DesktopNotification?
        if newFailures > 0 {
            notification = .batchSummary(of: report.results, destination: report.destination)
        } else if downloaded.isEmpty {
            notification = nil
        } else {
            let failing = failed.map { result -> (title: String, reason: String) in
                guard case .failed(let failure) = result.outcome else { preconditionFailure("only failures were kept") }
                return (result.title, failure.message)
            } + report.stillFailing.map { ($0.title, $0.reason) }
            notification = failing.isEmpty
                ? .batchSummary(of: downloaded, destination: report.destination)
                : .progressWithFailures(downloaded: downloaded, failing: failing, destination: report.destination)
        }
        return Announcement(notification: notification, downloaded: downloaded.count, newFailures: newFailures)
    }
}
