import FoundationEssentials

/// The lines of `syncagent status`: one row per file — title, state, a progress bar with bytes,
/// speed and ETA while it moves, and what happened last and when.
///
/// On a terminal every row fits its width: the title column narrows, then the bar, and what
/// still does not fit is cut with an ellipsis, so no row wraps. Piped, rows are whole.
///
/// Pure: the time is given, so rows are tested exactly.
public struct StatusTable {
    /// The time "5 min ago" and "in 1 h" count from.
    public var now: Date
    /// Terminal columns available, or `nil` for no limit (output to a pipe or a file).
    public var width: Int?
    /// Colours and symbols.
    public var style: TerminalStyle

    private static let stateColumns = 16
    private static let separator = "  "

    /// A table drawn at `now`, fitted to `width` columns (at least 40) if given.
    public init(now: Date, width: Int? = nil, style: TerminalStyle = TerminalStyle()) {
        self.now = now
        self.width = width.map { max(40, $0) }
        self.style = style
    }

    /// One line per file, in the order given.
    public func lines(for files: [FileStatus]) -> [String] {
        let longest = files.map { ProgressText.columns(of: ProgressText.sanitized($0.title)) }.max() ?? 0
        var titleWidth = min(32, longest)
        if let width {
            // A third of what is left beside the state column, so details keep most of a row.
            titleWidth = min(titleWidth, max(8, (width - Self.stateColumns - 2 * Self.separator.count) / 3))
        }
        return files.map { row(for: $0, titleWidth: titleWidth) }
    }

    /// `text` cut to `width` columns with the style's ellipsis, or whole without a width.
    private func fitted(_ text: String, toColumns columns: Int?) -> String {
        guard let columns else { return text }
        return ProgressText.truncated(text, toColumns: columns, ellipsis: style.symbols.ellipsis)
    }

    private func row(for file: FileStatus, titleWidth: Int) -> String {
        let title = ProgressText.leftAligned(ProgressText.sanitized(file.title), inColumns: titleWidth, ellipsis: style.symbols.ellipsis)
        let stateWords = Self.words(for: file.state)
        let detailColumns = width.map { $0 - titleWidth - Self.stateColumns - 2 * Self.separator.count }
        let (details, bar) = details(of: file, columns: detailColumns)
        guard !details.isEmpty || bar != nil else {
            return title + Self.separator + style.paint(stateWords, Self.color(of: file.state))
        }
        let state = style.paint(ProgressText.leftAligned(stateWords, inColumns: Self.stateColumns), Self.color(of: file.state))
        var rest = fitted(details, toColumns: detailColumns)
        if let bar {
            // The bar leads the details; it was sized to fit, so only what follows is cut.
            let after = detailColumns.map { $0 - ProgressText.columns(of: bar) - Self.separator.count }
            rest = style.paint(bar, .cyan) + (details.isEmpty ? "" : Self.separator + fitted(details, toColumns: after))
        }
        return title + Self.separator + state + Self.separator + rest
    }

    /// The colour a state is painted in: green when all is well, red when it failed,
    /// yellow while it waits on something.
    static func color(of state: FileStatus.State) -> TerminalStyle.Color {
        switch state {
        case .upToDate: .green
        case .failed: .red
        case .downloading: .cyan
        case .waitingToRetry, .paused, .stopped: .yellow
        case .queued, .waitingForStartDate, .waitingForWindow, .waitingForNetwork, .waitingForNetworkLogin, .waitingForPower,
             .waitingForUnmeteredNetwork, .notYetFetched, .skipped: .dim
        }
    }

    /// What the state is called in the table.
    static func words(for state: FileStatus.State) -> String {
        switch state {
        case .queued: "queued"
        case .downloading: "downloading"
        case .waitingToRetry: "waiting to retry"
        case .upToDate: "up to date"
        case .waitingForStartDate: "not before date"
        case .waitingForWindow: "outside window"
        case .waitingForNetwork: "no network"
        case .waitingForNetworkLogin: "network login"
        case .waitingForPower: "on battery"
        case .waitingForUnmeteredNetwork: "metered network"
        case .paused: "paused"
        case .stopped: "stopped"
        case .failed: "failed"
        case .notYetFetched: "not fetched yet"
        case .skipped: "skipped"
        }
    }

    /// The details column of a row, and the bar that leads it for a file that moves. With
    /// `columns`, the bar narrows (down to 10 cells) or goes, so the bytes, speed and ETA fit.
    private func details(of file: FileStatus, columns: Int?) -> (text: String, bar: String?) {
        switch file.state {
        case .paused where file.bytesReceived == nil && file.bytesExpected == nil:
            // Held before anything arrived (a feed, or a file or episode that never
            // started): its last result says more than "0 bytes".
            return (summary(of: file), nil)
        case .downloading, .paused:
            var parts = [bytes(file)]
            if file.state == .downloading {
                parts.append(file.bytesPerSecond.map(formatByteRate) ?? "")
                let remaining = file.secondsRemaining.map { Duration.milliseconds(Int64($0 * 1000)) }
                parts.append("ETA " + formatRemainingTime(remaining, unknown: style.symbols.unknown))
            }
            let text = parts.filter { !$0.isEmpty }.joined(separator: Self.separator)
            guard file.bytesExpected != nil else { return (text, nil) }
            var cells = 20
            if let columns {
                cells = min(cells, columns - ProgressText.columns(of: text) - Self.separator.count - 2)
                if cells < 10 { return (text, nil) }
            }
            return (text, bar(file, cells: cells))
        case .failed, .waitingToRetry:
            var text = ProgressText.sanitized(file.lastMessage ?? "failed")
            if let date = file.lastResultDate { text += " (\(ago(date)))" }
            if file.state == .failed, let next = file.nextCheck, next > now { text += "; next check \(inTime(next))" }
            if file.state == .waitingToRetry, let next = file.nextCheck { text += "; retry \(inTime(next))" }
            return (text, nil)
        case .upToDate, .waitingForStartDate, .waitingForWindow, .waitingForNetwork, .waitingForNetworkLogin, .waitingForPower,
             .waitingForUnmeteredNetwork, .queued, .stopped, .notYetFetched, .skipped:
            return (summary(of: file), nil)
        }
    }

    /// The details of a file that does not move: its last result, its next moment, and what
    /// a partial download holds.
    private func summary(of file: FileStatus) -> String {
        var parts: [String] = []
        if let kind = file.lastResult, let date = file.lastResultDate {
            let size = file.bytesExpected.map { ", \(formatByteCount($0))" } ?? ""
            parts.append("\(kind == "unchanged" ? "checked" : kind) \(ago(date))\(size)")
        }
        if let next = file.nextCheck, next > now {
            parts.append("\(Self.nextWords(for: file.state)) \(inTime(next))")
        }
        if let partial = file.bytesReceived { parts.append("\(formatByteCount(partial)) partly downloaded") }
        return parts.joined(separator: "; ")
    }

    /// What a waiting file's next moment is, in the table: "next check in 5 h".
    private static func nextWords(for state: FileStatus.State) -> String {
        switch state {
        case .waitingForWindow: "window opens"
        case .waitingForStartDate: "starts"
        case .upToDate, .failed, .notYetFetched: "next check"
        default: "next try"
        }
    }

    /// `[#####-----]`, `cells` wide inside the brackets.
    private func bar(_ file: FileStatus, cells: Int) -> String {
        guard let expected = file.bytesExpected, expected > 0, let received = file.bytesReceived else {
            return "[" + String(repeating: "-", count: cells) + "]"
        }
        let filled = Int((Double(min(received, expected)) / Double(expected) * Double(cells)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
    }

    private func bytes(_ file: FileStatus) -> String {
        let received = formatByteCount(file.bytesReceived ?? 0)
        guard let expected = file.bytesExpected else { return received }
        return "\(received) of \(formatByteCount(expected))"
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    private func ago(_ date: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return counted(seconds / 86_400, "day") + " ago"
        }
    }

    /// "in 40 s", "in 23 h".
    private func inTime(_ date: Date) -> String {
        "in " + formatRemainingTime(.milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000)))
    }
}
