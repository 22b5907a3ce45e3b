import FoundationEssentials

/// What `syncagent --once --dry-run` prints: a heading with how many feeds would be checked
/// and files fetched, then one line per feed and one per file (episodes a feed already wants
/// included) — checked, fetched or skipped, its title and name, and why.
///
/// ```
/// syncagent --once would fetch 2 of 3 files into ~/Guides (a dry run: nothing was changed)
///   fetch  Guide A → a.pdf: missing
///   fetch  Old Guide → old.pdf: re-check, downloaded only if it changed on the server (not due by its schedule for 20 h)
///   skip   Gone Guide → gone.pdf: stopped; `syncagent start` releases it
/// ```
public struct DryRunListing {
    /// The arrow and ellipsis of the terminal's character set.
    public var symbols: TerminalSymbols
    /// Whether each file's URL is shown on a line of its own (`--verbose`).
    public var verbose: Bool
    /// What "now" is, for the times the schedule names.
    public var now: Date

    public init(symbols: TerminalSymbols, verbose: Bool, now: Date) {
        self.symbols = symbols
        self.verbose = verbose
        self.now = now
    }

    /// The whole listing, lines ended by newlines; `folder` is the destination as shown.
    /// Feeds, when the manifest has any, come first: `--once` checks them before it fetches.
    public func text(_ files: [SyncDriver.PreviewedFile], feeds: [SyncDriver.PreviewedFeed] = [], folder: String, root: String) -> String {
        let fetched = files.filter { if case .fetch = $0.decision { true } else { false } }.count
        let checked = feeds.filter { if case .check = $0.decision { true } else { false } }.count
        let checks = feeds.isEmpty ? "" : "check \(checked) of \(counted(feeds.count, "feed")) and "
        var text = "syncagent --once would \(checks)fetch \(fetched) of \(counted(files.count, "file")) into \(folder) (a dry run: nothing was changed)\n"
        for feed in feeds {
            let (verb, why) = words(for: feed.decision)
            text += line(verb, title: feed.title, path: feed.folder + "/", root: root, why: why, url: feed.url)
        }
        for file in files {
            let (verb, why) = words(for: file.decision)
            text += line(verb, title: file.title, path: file.path, root: root, why: why, url: file.url)
        }
        return text
    }

    /// "  fetch  Guide A → a.pdf: missing", and the URL below it when verbose.
    private func line(_ verb: String, title: String, path: String, root: String, why: String, url: String) -> String {
        let name = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        var text = "  \(verb)\(String(repeating: " ", count: 5 - verb.count))  \(ProgressText.sanitized(title)) \(symbols.arrow) \(ProgressText.sanitized(name)): \(why)\n"
        if verbose { text += "         \(url)\n" }
        return text
    }

    private func words(for decision: SyncDriver.PreviewedFeed.Decision) -> (String, String) {
        let then = "; the episodes it wants are fetched after it"
        switch decision {
        case .check(.neverChecked):
            return ("check", "never checked" + then)
        case .check(.recheck(let schedule)):
            return ("check", "re-check, read only if it changed on the server (\(scheduleWords(schedule)))" + then)
        case .check(.failedLastTime(let message)):
            return ("check", "failed last time: \(ProgressText.sanitized(message))")
        case .skip(.held(let hold)):
            return words(for: SyncDriver.PreviewedFile.Decision.skip(.held(hold)))
        case .skip(.gone):
            return ("skip", "the server answered 410 Gone; no longer checked (edit or remove it in the manifest)")
        case .skip(.waiting(let reason)):
            return ("skip", waitingWords(reason))
        }
    }

    private func words(for decision: SyncDriver.PreviewedFile.Decision) -> (String, String) {
        switch decision {
        case .fetch(.missing):
            return ("fetch", "missing")
        case .fetch(.resumes(let offset)):
            return ("fetch", "missing; continues its partial download from \(formatByteCount(offset))")
        case .fetch(.unknownVersion):
            return ("fetch", "on disk, never checked: downloaded only if the server has another version")
        case .fetch(.recheck(let schedule)):
            return ("fetch", "re-check, downloaded only if it changed on the server (\(scheduleWords(schedule)))")
        case .fetch(.failedLastTime(let message)):
            return ("fetch", "failed last time: \(ProgressText.sanitized(message))")
        case .skip(.held(.paused)):
            return ("skip", "paused; `syncagent resume` releases it")
        case .skip(.held(.stopped)):
            return ("skip", "stopped; `syncagent start` releases it")
        case .skip(.waiting(let reason)):
            return ("skip", waitingWords(reason))
        }
    }

    /// What the agent's schedule makes of a file `--once` re-checks anyway.
    private func scheduleWords(_ reason: WaitReason?) -> String {
        guard let reason else { return "due by its schedule" }
        return "by its schedule " + waitingWords(reason)
    }

    private func waitingWords(_ reason: WaitReason) -> String {
        switch reason {
        case .notDue(let date): "not due for \(remaining(date))"
        case .notBefore(let date): "not before its start date, in \(remaining(date))"
        case .outsideWindow(let date): "outside its window, which opens in \(remaining(date))"
        case .retry(let date): "waiting \(remaining(date)) to retry"
        case .serverAskedToWait(let date): "the server asked to wait \(remaining(date)) (Retry-After)"
        case .waitingForNetwork: "waiting for a network"
        case .waitingForNetworkLogin: "waiting for network login (a captive portal)"
        case .waitingForMainsPower: "waiting for mains power"
        case .waitingForUnmeteredNetwork: "waiting for an unmetered network"
        }
    }

    private func remaining(_ date: Date) -> String {
        formatRemainingTime(.milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000)))
    }
}
