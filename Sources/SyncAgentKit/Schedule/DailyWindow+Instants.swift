import FoundationEssentials

extension Manifest.DailyWindow {
    /// When the window is open on the local day `day` (days since 1970-01-01), as instants;
    /// `nil` when the clocks skip all of it that day.
    ///
    /// It opens the first time the local clock reaches `start` and closes the first time after
    /// that it reaches `end` — on the next day for a window that crosses midnight. So it opens
    /// once a day, and lasts longer or shorter when the clocks change inside it: an hour that
    /// happens twice does not reopen a window that has closed, and a start the clocks skip
    /// opens the window when they jump past it.
    func openSpan(onLocalDay day: Int64, clock: WallClock) -> Range<Date>? {
        let midnight = day * WallClock.secondsPerDay
        let closingMidnight = crossesMidnight ? midnight + WallClock.secondsPerDay : midnight
        let opens = clock.firstInstant(reaching: midnight + Int64(start) * 60)
        let closes = clock.firstInstant(reaching: closingMidnight + Int64(end) * 60)
        return opens < closes ? opens..<closes : nil
    }

    /// The first moment at or after `instant` at which the window is open: `instant` itself
    /// when it is open then.
    func firstOpenMoment(atOrAfter instant: Date, clock: WallClock) -> Date {
        let today = clock.localDay(of: instant)
        // Yesterday's window may still be open (it crosses midnight); a later day's opens
        // within two days, one of them perhaps swallowed by a clock change.
        for day in (today - 1)...(today + 3) {
            guard let span = openSpan(onLocalDay: day, clock: clock), span.upperBound > instant else { continue }
            return max(span.lowerBound, instant)
        }
        preconditionFailure("no time zone skips a daily window on three days in a row")
    }
}
