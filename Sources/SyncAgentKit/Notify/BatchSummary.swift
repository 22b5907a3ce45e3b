extension DesktopNotification {
    /// The most failures the body lists one per line; beyond it the last line counts the rest.
    static let listedFailureLimit = 5

    /// Where a batch's notification points the user, beyond what the batch itself says.
    public struct BatchPlaces: Sendable, Equatable {
        /// The home folder, written `~` in the folder the body names; `nil` names it whole.
        public var home: String?
        /// The text file that lists every failing file (``BatchAnnouncer/Announcement/details``),
        /// opened by "Show details"; `nil` offers no such action.
        public var detailsPath: String?

        public init(home: String? = nil, detailsPath: String? = nil) {
            self.home = home
            self.detailsPath = detailsPath
        }
    }

    /// A file failing now, in this batch or from before, as a notification lists it.
    struct Failing: Equatable {
        var title: String
        var path: String
        var reason: String
    }

    /// The one notification that sums up a finished batch, or `nil` when there is nothing to tell.
    ///
    /// `destination` is the absolute folder the files are kept in (``Manifest/destination``);
    /// the body names it whole, the home folder written `~`. The wording, exactly:
    ///
    /// - Nothing downloaded and nothing failed (every file unchanged, or no files at all):
    ///   `nil`. A check that found nothing new is silent.
    /// - Nothing failed: summary "All files have been downloaded!"; body the number and total
    ///   size of the files this batch downloaded and the folder, "6 files, 48.2 MB, in
    ///   ~/Downloads/Apple Guides" ("1 file, 712 KB, in …" for one); category
    ///   `transfer.complete`, urgency normal, icon "folder-download", sound "complete-download".
    ///   A click or "Open Folder" shows the new files in the file manager; for one file,
    ///   "Open" opens it.
    /// - Some failed: summary "2 of 6 files could not be downloaded", counting every file in
    ///   the batch; when all of them failed, "1 file could not be downloaded" or "3 files
    ///   could not be downloaded". Body one line per failing file, "Title: reason" (the
    ///   ``TransferFailure`` message) — this batch's failures in batch order, then
    ///   `stillFailing`, the files failing from before; at most five lines, so with more the
    ///   first four are listed and a last line says "and 3 more" ("Show details" lists them
    ///   all). Category `transfer.error`, urgency normal (a failed download can wait for the
    ///   user; critical is for what needs them now), icon "syncagent-warning" (shipped with the
    ///   app: "dialog-error" is missing from some icon themes), sound "dialog-warning"; "Retry
    ///   now" starts every failing file again, "Show details" opens the list of every failure.
    public static func batchSummary(
        of results: [FileResult],
        stillFailing: [BatchReport.StillFailing] = [],
        destination: String,
        places: BatchPlaces = BatchPlaces()
    ) -> DesktopNotification? {
        var downloaded: [FileResult] = []
        var failing: [Failing] = []
        for result in results {
            switch result.outcome {
            case .downloaded: downloaded.append(result)
            case .unchanged: break
            case .failed(let failure): failing.append(Failing(title: result.title, path: result.path, reason: failure.message))
            }
        }
        let batchFailures = failing.count
        failing += stillFailing.map { Failing(title: $0.title, path: $0.path, reason: $0.reason) }

        if batchFailures > 0 {
            let summary = batchFailures == results.count
                ? "\(counted(batchFailures, "file")) could not be downloaded"
                : "\(batchFailures) of \(results.count) files could not be downloaded"
            return failureNotice(summary: summary, lines: [], failing: failing, places: places)
        }
        guard !downloaded.isEmpty else { return nil }
        let files = downloaded.map(\.path)
        return DesktopNotification(
            summary: "All files have been downloaded!",
            body: downloadedLines(downloaded, destination: destination, home: places.home).joined(separator: "\n"),
            category: .transferComplete,
            urgency: .normal,
            iconName: "folder-download",
            actions: [.clickShowsFolder(destination, files: files), .openFolder(destination, files: files)]
                + (files.count == 1 ? [.open(files[0])] : []),
            soundName: "complete-download"
        )
    }

    /// The notification for a batch that put files in place while other files of the
    /// manifest still fail (failures already told, or from earlier batches): it must not claim
    /// that all files are in place. The wording, exactly: summary "1 new file · 1 still
    /// failing" ("3 new files · 2 still failing"); body the downloaded files as in the success
    /// summary ("3 files, 2.1 MB, in ~/Downloads/Apple Guides"), then one line per failing
    /// file, "Title: reason", at most five as in the failure summary. Category `transfer.error`,
    /// urgency normal, icon "syncagent-warning", no sound (nothing new went wrong); a click or
    /// "Open Folder" shows the new files, "Retry now" and "Show details" as for failures.
    static func progressWithFailures(
        downloaded: [FileResult],
        failing: [Failing],
        destination: String,
        places: BatchPlaces
    ) -> DesktopNotification {
        let newFiles = counted(downloaded.count, "new file")
        var notification = failureNotice(
            summary: "\(newFiles) · \(failing.count) still failing",
            lines: downloadedLines(downloaded, destination: destination, home: places.home),
            failing: failing,
            places: places
        )
        let files = downloaded.map(\.path)
        notification.actions.insert(contentsOf: [.clickShowsFolder(destination, files: files), .openFolder(destination, files: files)], at: 0)
        notification.soundName = nil
        return notification
    }

    /// `lines`, then the failing files as "Title: reason", at most ``listedFailureLimit``
    /// of them (beyond it, the first ones and "and 3 more"); with "Retry now" and "Show details".
    private static func failureNotice(summary: String, lines: [String], failing: [Failing], places: BatchPlaces) -> DesktopNotification {
        let listed = failing.map { "\($0.title): \($0.reason)" }
        let shown = listed.count <= listedFailureLimit
            ? listed
            : listed.prefix(listedFailureLimit - 1) + ["and \(listed.count - listedFailureLimit + 1) more"]
        return DesktopNotification(
            summary: summary,
            body: (lines + shown).joined(separator: "\n"),
            category: .transferError,
            urgency: .normal,
            iconName: "syncagent-warning",
            actions: [.retry(failing.map(\.path))] + (places.detailsPath.map { [.showDetails($0)] } ?? []),
            soundName: "dialog-warning"
        )
    }
}
