/// The one-line messages of `syncagent --once`: the lines a terminal board scrolls up as
/// files finish, and the lines written instead of a board when output is not a terminal.
///
/// Every title and reason is passed through ``ProgressText/sanitized(_:)``, so each
/// message is exactly one line with no control characters.
public enum ProgressLines {
    /// A finished file on the terminal: "✓ Title  28.6 MB", "= Title  unchanged",
    /// "✗ Title  reason". Not cut to the terminal width: a failure's reason matters more
    /// than a tidy edge, and these lines scroll away anyway.
    public static func finished(title: String, outcome: TransferOutcome) -> String {
        let title = ProgressText.sanitized(title)
        switch outcome {
        case .downloaded(let bytes):
            return "✓ \(title)  \(formatByteCount(bytes))"
        case .unchanged:
            return "= \(title)  unchanged"
        case .failed(let failure):
            return "✗ \(title)  \(ProgressText.sanitized(failure.message))"
        }
    }

    /// "started  Title (28.6 MB)"; a resume adds where it continues from:
    /// "started  Title (28.6 MB, resuming at 12.3 MB)".
    public static func plainStarted(title: String, receivedBytes: Int64, expectedBytes: Int64?) -> String {
        var details: [String] = []
        if let expectedBytes { details.append(formatByteCount(expectedBytes)) }
        if receivedBytes > 0 { details.append("resuming at \(formatByteCount(receivedBytes))") }
        let suffix = details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")"
        return plain("started", ProgressText.sanitized(title) + suffix)
    }

    /// "done     Title  28.6 MB in 3.2 s", "unchanged Title", "failed   Title: reason".
    /// `elapsed` is `nil` when the file's start was not seen; the time is then left out.
    public static func plainFinished(title: String, outcome: TransferOutcome, elapsed: Duration?) -> String {
        let title = ProgressText.sanitized(title)
        switch outcome {
        case .downloaded(let bytes):
            let time = elapsed.map { " in " + formatElapsedTime($0) } ?? ""
            return plain("done", "\(title)  \(formatByteCount(bytes))\(time)")
        case .unchanged:
            return plain("unchanged", title)
        case .failed(let failure):
            return plain("failed", "\(title): \(ProgressText.sanitized(failure.message))")
        }
    }

    /// "retrying Title in 2 s: reason".
    public static func plainRetrying(title: String, after delay: Duration, reason: String) -> String {
        plain("retrying", "\(ProgressText.sanitized(title)) in \(formatRemainingTime(delay)): \(ProgressText.sanitized(reason))")
    }

    /// The verb padded so the titles of most lines start in the same column, as a log
    /// reader scanning down expects.
    private static func plain(_ verb: String, _ rest: String) -> String {
        ProgressText.leftAligned(verb, inColumns: max(8, verb.count)) + " " + rest
    }
}
