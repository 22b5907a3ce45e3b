/// How the files of a batch ended, counted for the summary line.
public struct ProgressTally: Sendable, Equatable {
    /// Files a new version was put in place for.
    public private(set) var downloaded = 0
    /// The bytes of those new versions, in all.
    public private(set) var downloadedBytes: Int64 = 0
    /// Files the server said were current.
    public private(set) var unchanged = 0
    /// Files that could not be brought up to date.
    public private(set) var failed = 0

    /// Nothing counted yet.
    public init() {}

    /// Counts one finished file.
    public mutating func count(_ outcome: TransferOutcome) {
        switch outcome {
        case .downloaded(let bytes):
            downloaded += 1
            downloadedBytes += bytes
        case .unchanged:
            unchanged += 1
        case .failed:
            failed += 1
        }
    }

    /// The line that ends a batch: "6 files: 4 downloaded (48.2 MB), 1 unchanged, 1 failed".
    ///
    /// `unfinished` counts files still running when the batch was cut short; they appear
    /// as "N not finished". Kinds with nothing in them are left out. With `folder` (already
    /// shown as the user reads it, `~` for home) the line says where the files are: "6 files
    /// in ~/Guides: …"; with `elapsed`, how long the downloads took and how fast, as apt's
    /// "Fetched" line does: "4 downloaded (48.2 MB in 3.2 s, 15.1 MB/s)".
    public func summary(unfinished: Int = 0, folder: String? = nil, elapsed: Duration? = nil) -> String {
        let total = downloaded + unchanged + failed + unfinished
        var parts: [String] = []
        if downloaded > 0 {
            var amount = formatByteCount(downloadedBytes)
            if let elapsed, elapsed > .zero {
                amount += " in \(formatElapsedTime(elapsed)), \(formatByteRate(Double(downloadedBytes) / elapsed.progressSeconds))"
            }
            parts.append("\(downloaded) downloaded (\(amount))")
        }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        if failed > 0 { parts.append("\(failed) failed") }
        if unfinished > 0 { parts.append("\(unfinished) not finished") }
        // A batch with no file in it (only feeds checked, nothing new): say so, not "0 files".
        guard total > 0 else { return "nothing new" + (folder.map { " in \($0)" } ?? "") }
        let files = counted(total, "file") + (folder.map { " in \($0)" } ?? "")
        return parts.isEmpty ? files : files + ": " + parts.joined(separator: ", ")
    }
}
