extension DesktopNotification {
    /// The most failures the body lists one per line; beyond it the last line counts the rest.
    static let listedFailureLimit = 5

    /// The one notification that sums up a finished batch, or `nil` when there is nothing to tell.
    ///
    /// `destination` is the absolute folder the files are kept in (``Manifest/destination``);
    /// the notification names its last component. The wording, exactly:
    ///
    /// - Nothing downloaded and nothing failed (every file unchanged, or no files at all):
    ///   `nil`. A check that found nothing new is silent.
    /// - Nothing failed: summary "All files have been downloaded!"; body the number and total
    ///   size of the files this batch downloaded and the folder, "6 files, 48.2 MB, in Apple
    ///   Guides" ("1 file, 712 KB, in Apple Guides" for one); category `transfer.complete`,
    ///   urgency normal, icon "folder-download".
    /// - Some failed: summary "2 of 6 files could not be downloaded", counting every file in
    ///   the batch; when all of them failed, "1 file could not be downloaded" or "3 files
    ///   could not be downloaded". Body one line per failed file in batch order,
    ///   "Title: reason" (the ``TransferFailure`` message); at most five lines, so with more
    ///   than five failures the first four are listed and a last line says "and 3 more".
    ///   Category `transfer.error`, urgency critical, icon "dialog-error".
    public static func batchSummary(of results: [FileResult], destination: String) -> DesktopNotification? {
        var downloadedCount = 0
        var failures: [(title: String, failure: TransferFailure)] = []
        for result in results {
            switch result.outcome {
            case .downloaded:
                downloadedCount += 1
            case .unchanged:
                break
            case .failed(let failure):
                failures.append((result.title, failure))
            }
        }

        if !failures.isEmpty {
            return failureSummary(failures, total: results.count)
        }
        guard downloadedCount > 0 else { return nil }
        return DesktopNotification(
            summary: "All files have been downloaded!",
            body: downloadedLines(results, destination: destination).joined(separator: "\n"),
            category: .transferComplete,
            urgency: .normal,
            iconName: "folder-download"
        )
    }

    /// The notification for a batch that put files in place while other files of the
    /// manifest still fail (failures already told, or from earlier batches): it must not claim
    /// that all files are in place. The wording, exactly: summary "1 new file · 1 still
    /// failing" ("3 new files · 2 still failing"); body the downloaded files as in the success
    /// summary ("3 files, 2.1 MB, in Apple Guides"), then one line per failing file,
    /// "Title: reason", at most five as in the failure summary. Category `transfer.error`,
    /// urgency normal (nothing new needs the user now), icon "dialog-warning".
    static func progressWithFailures(
        downloaded: [FileResult],
        failing: [(title: String, reason: String)],
        destination: String
    ) -> DesktopNotification {
        let newFiles = downloaded.count == 1 ? "1 new file" : "\(downloaded.count) new files"
        let lines = downloadedLines(downloaded, destination: destination)
            + limited(failing.map { "\($0.title): \($0.reason)" })
        return DesktopNotification(
            summary: "\(newFiles) · \(failing.count) still failing",
            body: lines.joined(separator: "\n"),
            category: .transferError,
            urgency: .normal,
            iconName: "dialog-warning"
        )
    }

    /// At most ``listedFailureLimit`` lines: beyond it, the first ones and "and 3 more".
    private static func limited(_ lines: [String]) -> [String] {
        lines.count <= listedFailureLimit ? lines : lines.prefix(listedFailureLimit - 1) + ["and \(lines.count - listedFailureLimit + 1) more"]
    }

    private static func failureSummary(
        _ failures: [(title: String, failure: TransferFailure)],
        total: Int
    ) -> DesktopNotification {
        let summary = failures.count == total
            ? "\(countOfFiles(failures.count)) could not be downloaded"
            : "\(failures.count) of \(total) files could not be downloaded"
        let lines = limited(failures.map { "\($0.title): \($0.failure.message)" })
        return DesktopNotification(
            summary: summary,
            body: lines.joined(separator: "\n"),
            category: .transferError,
            urgency: .critical,
            iconName: "dialog-error"
        )
    }

    static func countOfFiles(_ count: Int) -> String {
        count == 1 ? "1 file" : "\(count) files"
    }

    /// The folder's own name, as a file manager shows it: "Apple Guides" for
    /// "/home/ann/Downloads/Apple Guides/".
    static func folderName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
