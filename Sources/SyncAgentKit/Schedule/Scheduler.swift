import FoundationEssentials

/// Decides, the way iOS background fetch does, which files to transfer now and when to look
/// again. Pure: the time, the time zone and the conditions come in, nothing is read or waited
/// for, so every rule is tested with a fixed clock.
///
/// The rules, per file:
/// - A user's explicit request starts it now. Only a server's pending `Retry-After` holds it
///   back: syncagent's own backoff, `every`, `not_before`, `window` and conditions do not.
/// - Otherwise it is *due* when it is missing or was never checked, when a transient failure's
///   retry time has come, or when `every` has passed since its last check (after a permanent
///   failure too: a retry cannot fix a 404, the next scheduled check may).
/// - `not_before` and `window` hold due work back; a transfer that started inside the window
///   runs on after it closes.
/// - Then it waits for a network (past any captive portal's login), and discretionary work also for mains power and an
///   unmetered network (``Conditions/allowDiscretionaryWork``).
///
/// ```swift
/// let plan = Scheduler(timeZone: .current).plan(files, at: Date(), conditions: conditions)
/// start(plan.start); sleep(until: plan.nextWake) // or until conditions change
/// ```
public struct Scheduler: Sendable {
    /// The zone windows and `not_before` days are local to; the agent passes the current one
    /// each round, so a change of time zone takes effect at once.
    public var timeZone: TimeZone

    /// A scheduler for the local time of `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// Whether planning `files` reads ``timeZone``: only the `not_before` or `window` of a
    /// file the user did not ask for does (see ``waitReason(for:at:conditions:)``).
    public static func readsTimeZone(planning files: [ScheduledFile]) -> Bool {
        files.contains { !$0.requestedByUser && ($0.schedule.notBefore != nil || $0.schedule.window != nil) }
    }

    /// Which of `files` start at `now` under `conditions`, why the others wait, and the next
    /// moment one of them can start by time.
    public func plan(_ files: [ScheduledFile], at now: Date, conditions: Conditions) -> SchedulePlan {
        var plan = SchedulePlan()
        for file in files {
            guard let reason = waitReason(for: file, at: now, conditions: conditions) else {
                plan.start.append(file.path)
                continue
            }
            plan.waiting.append(.init(path: file.path, reason: reason))
            if let until = reason.until {
                plan.nextWake = min(plan.nextWake ?? until, until)
            }
        }
        return plan
    }

    /// Why `file` cannot start at `now`, or `nil` when it can.
    func waitReason(for file: ScheduledFile, at now: Date, conditions: Conditions) -> WaitReason? {
        if file.requestedByUser {
            guard case .failedTransiently(_, let retry?) = file.lastCheck, retry.requestedByServer, retry.date > now else { return nil }
            return .serverAskedToWait(until: retry.date)
        }
        var hold = Hold(now: now)
        hold.extend(to: dueDate(of: file, at: now))
        if let notBefore = file.schedule.notBefore?.instant(on: WallClock(timeZone: timeZone)) {
            hold.extend(to: (notBefore, .notBefore(notBefore)))
        }
        if let window = file.schedule.window {
            let opens = window.firstOpenMoment(atOrAfter: hold.date, clock: WallClock(timeZone: timeZone))
            hold.extend(to: (opens, .outsideWindow(opensAt: opens)))
        }
        return hold.reason ?? missingCondition(for: file.schedule, in: conditions)
    }

    /// When `file` becomes due and the reason it waits till then; `nil` when it is due now.
    private func dueDate(of file: ScheduledFile, at now: Date) -> (Date, WaitReason)? {
        switch file.lastCheck {
        case nil:
            return nil
        case .failedTransiently(_, let retry?):
            return (retry.date, retry.requestedByServer ? .serverAskedToWait(until: retry.date) : .retry(at: retry.date))
        case .failedTransiently(_, nil):
            return nil
        case .succeeded where !file.existsOnDisk:
            // Deleted since: fetch it again rather than wait for the next check.
            return nil
        case .succeeded(let checked), .failedPermanently(let checked):
            // A check dated after `now` means the clock was set back since; counting from
            // `now` keeps the file from waiting as long as the clock was wrong.
            let due = min(checked, now).adding(file.schedule.every)
            return (due, .notDue(until: due))
        }
    }

    /// The condition `schedule` waits for that `conditions` lack, if any.
    private func missingCondition(for schedule: Manifest.Schedule, in conditions: Conditions) -> WaitReason? {
        if !conditions.networkAvailable { return .waitingForNetwork }
        if conditions.networkNeedsLogin { return .waitingForNetworkLogin }
        guard schedule.discretionary, !conditions.allowDiscretionaryWork else { return nil }
        return conditions.onMainsPower ? .waitingForUnmeteredNetwork : .waitingForMainsPower
    }

    /// The latest of the time rules met so far: the moment a file can start, and the rule
    /// that holds it back till then (`nil` while that moment is `now`).
    private struct Hold {
        private(set) var date: Date
        private(set) var reason: WaitReason?

        init(now: Date) {
            date = now
        }

        /// Moves the moment on to `limit` when that is later; ties keep the earlier rule.
        mutating func extend(to limit: (date: Date, reason: WaitReason)?) {
            guard let limit, limit.date > date else { return }
            date = limit.date
            reason = limit.reason
        }
    }
}
