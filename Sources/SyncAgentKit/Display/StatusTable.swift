import Foundation

/// The lines of `syncagent status`: one row per file — title, state, a progress bar with bytes,
/// speed and ETA while it moves, and what happened last and when.
///
/// Pure: the time is given, so rows are tested exactly.
public struct StatusTable {
    public var now: Date
    /// Terminal columns available.
    public var width: Int

    public init(now: Date, width: Int = 100) {
        self.now = now
        self.width = max(40, width)
    }

    public func lines(for files: [FileStatus]) -> [String] {
        let titleWidth = min(32, files.map { ProgressText.columns(of: ProgressText.sanitized($0.title)) }.max() ?? 0)
        return files.map { row(for: $0, titleWidth: titleWidth) }
    }

    private func row(for file: FileStatus, titleWidth: Int) -> String {
        let title = ProgressText.leftAligned(ProgressText.truncated(ProgressText.sanitized(file.title), toColumns: titleWidth), inColumns: titleWidth)
        let state = ProgressText.leftAligned(Self.words(for: file.state), inColumns: 16)
        let row = "\(title)  \(state)  \(details(of: file))"
        return String(row.reversed().drop { $0 == " " }.reversed())
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
        case .waitingForPower: "on battery"
        case .waitingForUnmeteredNetwork: "metered network"
        case .paused: "paused"
        case .stopped: "stopped"
        case .failed: "failed"
        case .notYetFetched: "not fetched yet"
        }
    }

    private func details(of file: FileStatus) -> String {
        switch file.state {
        case .downloading, .paused:
            var parts = [file.bytesExpected == nil ? "" : bar(file), bytes(file)]
            if file.state == .downloading {
                parts.append(file.bytesPerSecond.map(formatByteRate) ?? "")
                parts.append("ETA " + formatRemainingTime(file.secondsRemaining.map { .milliseconds(Int64($0 * 1000)) }))
            }
            return parts.filter { !$0.isEmpty }.joined(separator: "  ")
        case .failed, .waitingToRetry:
            var text = ProgressText.sanitized(file.lastMessage ?? "failed")
            if let date = file.lastResultDate { text += " (\(ago(date)))" }
            if file.state == .failed, let next = file.nextCheck, next > now { text += "; next check \(inTime(next))" }
            if file.state == .waitingToRetry, let next = file.nextCheck { text += "; retry \(inTime(next))" }
            return text
        case .upToDate, .waitingForStartDate, .waitingForWindow, .waitingForNetwork, .waitingForPower,
             .waitingForUnmeteredNetwork, .queued, .stopped, .notYetFetched:
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

    private func bar(_ file: FileStatus) -> String {
        let cells = 20
        guard let expected = file.bytesExpected, expected > 0, let received = file.bytesReceived else {
            return "[" + String(repeating: "-", count: cells) + "]"
        }
        let filled = Int((Double(min(received, expected)) / Double(expected) * Double(cells)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
    }

    private func bytes(_ file: FileStatus) -> String {
        let received = formatByteCount(file.bytesReceived ?? 0)
        guard let expected = file.bytesExpected else { return received }
        return "\(received) / \(formatByteCount(expected))"
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    private func ago(_ date: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) days ago"
        }
    }

    /// "in 40 s", "in 23 h".
    private func inTime(_ date: Date) -> String {
        "in " + formatRemainingTime(.milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000)))
    }
}
