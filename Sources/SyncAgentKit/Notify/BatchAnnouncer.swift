/// Decides what a finished batch says on the desktop — the one policy for `--once` and the
/// agent alike.
///
/// - Failures new in this batch: the failure summary
///   (``DesktopNotification/batchSummary(of:stillFailing:destination:places:)``), listing the
///   files still failing from before too. A failure already told with the same reason is not
///   new: a file that keeps failing the same way on its retries is not announced again until
///   something changes.
/// - Files downloaded and nothing failing anywhere in the manifest: "All files have been
///   downloaded!".
/// - Files downloaded while others still fail (in this batch, already told, or from an earlier
///   batch): never a claim of success, but "1 new file · 1 still failing" with the reasons.
/// - Nothing downloaded and nothing newly failed: silence. A check that found nothing new
///   says nothing.
///
/// Every announcement also carries ``Announcement/details``, the full list of failing files
/// that "Show details" opens. `--once` uses a new announcer for its one batch; the agent
/// keeps one for its life, and each notification it shows replaces the last.
public struct BatchAnnouncer: Sendable {
    /// What an announcement decided, for the log as well as the desktop.
    public struct Announcement: Sendable, Equatable {
        /// What to show; `nil` when the batch is not worth a notification.
        public var notification: DesktopNotification?
        /// Files the batch put in place.
        public var downloaded: Int
        /// Failures not told before.
        public var newFailures: Int
        /// Every file failing now, one "Title: reason" line each (with its path), or `nil`
        /// when none fails: what ``DesktopNotification/BatchPlaces/detailsPath`` should hold.
        public var details: String?
    }

    /// Failures already told, reason by path.
    private var toldFailures: [String: String] = [:]
    private let places: DesktopNotification.BatchPlaces

    /// An announcer whose notifications name folders under `places.home` with `~` and offer
    /// "Show details" for `places.detailsPath`.
    public init(places: DesktopNotification.BatchPlaces = .init()) {
        self.places = places
    }

    /// The announcement for `report`; remembers its failures as told.
    public mutating func announce(_ report: BatchReport) -> Announcement {
        var downloaded: [FileResult] = []
        var failing: [DesktopNotification.Failing] = []
        var newFailures = 0
        for result in report.results {
            switch result.outcome {
            case .downloaded:
                downloaded.append(result)
                toldFailures[result.path] = nil
            case .unchanged:
                toldFailures[result.path] = nil
            case .failed(let failure):
                failing.append(.init(title: result.title, path: result.path, reason: failure.message))
                if toldFailures.updateValue(failure.message, forKey: result.path) != failure.message { newFailures += 1 }
            }
        }
        failing += report.stillFailing.map { .init(title: $0.title, path: $0.path, reason: $0.reason) }
        let notification: DesktopNotification?
        if newFailures > 0 {
            notification = .batchSummary(of: report.results, stillFailing: report.stillFailing, destination: report.destination, places: places)
        } else if downloaded.isEmpty {
            notification = nil
        } else if failing.isEmpty {
            notification = .batchSummary(of: downloaded, destination: report.destination, places: places)
        } else {
            notification = .progressWithFailures(downloaded: downloaded, failing: failing, destination: report.destination, places: places)
        }
        let details = failing.isEmpty ? nil : failing.map { "\($0.title): \($0.reason)\n    \($0.path)\n" }.joined()
        return Announcement(notification: notification, downloaded: downloaded.count, newFailures: newFailures, details: details)
    }
}
