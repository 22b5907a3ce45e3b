import FoundationEssentials

/// What `syncagent status` says about transfers that run on after their `window` closed: a
/// transfer that started inside its window finishes, and nothing new starts until it opens.
public enum ClosedWindowNotice {
    /// "AV Foundation runs on after its window 01:00-06:00 closed; it finishes, nothing new
    /// starts before the window opens again", or `nil` when no downloading file is outside
    /// its window at `now`.
    public static func message(files: [FileStatus], manifest: Manifest, at now: Date, timeZone: TimeZone) -> String? {
        let clock = WallClock(timeZone: timeZone)
        let windows = Dictionary(manifest.files.map { (manifest.destinationPath(of: $0), $0.schedule.window) }, uniquingKeysWith: { first, _ in first })
        let late = files.filter { file in
            guard file.state == .downloading, let window = windows[file.path] ?? nil else { return false }
            return window.firstOpenMoment(atOrAfter: now, clock: clock) > now
        }
        guard let first = late.first, let window = windows[first.path] ?? nil else { return nil }
        let title = ProgressText.sanitized(first.title)
        if late.count == 1 {
            return "\(title) runs on after its window \(text(window)) closed; it finishes, and nothing new starts before the window opens again."
        }
        return "\(title) and \(late.count - 1) more run on after their window closed; they finish, and nothing new starts before it opens again."
    }

    /// "01:00-06:00".
    private static func text(_ window: Manifest.DailyWindow) -> String {
        func clock(_ minute: Int) -> String {
            let hours = minute / 60, minutes = minute % 60
            return "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
        }
        return "\(clock(window.start))-\(clock(window.end))"
    }
}
