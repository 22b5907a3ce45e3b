import FoundationEssentials

/// Which bandwidth cap holds at a moment, from the manifest's `bandwidth` and
/// `bandwidth_windows`: the first window open then wins, else `bandwidth` (or no cap). Pure:
/// the time and the time zone come in.
public struct BandwidthSchedule: Sendable {
    /// A cap and how long it holds.
    public struct Cap: Sendable, Equatable {
        /// Bytes per second; `nil`: unlimited.
        public var bytesPerSecond: Int64?
        /// When another cap may take over (a window opens or closes); `nil`: never.
        public var until: Date?
    }

    public var limit: Manifest.BandwidthLimit
    public var timeZone: TimeZone

    public init(limit: Manifest.BandwidthLimit, timeZone: TimeZone) {
        self.limit = limit
        self.timeZone = timeZone
    }

    /// The cap at `now`.
    public func cap(at now: Date) -> Cap {
        guard !limit.windows.isEmpty else { return Cap(bytesPerSecond: limit.bytesPerSecond, until: nil) }
        let clock = WallClock(timeZone: timeZone)
        var change: Date?
        for item in limit.windows {
            let opens = item.window.firstOpenMoment(atOrAfter: now, clock: clock)
            if opens == now, let span = openSpan(of: item.window, containing: now, clock: clock) {
                // Open now: it holds until it closes, or until an earlier window that opens first wins.
                return Cap(bytesPerSecond: item.bytesPerSecond, until: [span.upperBound, change].compactMap { $0 }.min())
            }
            change = min(change ?? opens, opens)
        }
        return Cap(bytesPerSecond: limit.bytesPerSecond, until: change)
    }

    /// The span of `window` that holds `instant`: the one that opened today or yesterday.
    private func openSpan(of window: Manifest.DailyWindow, containing instant: Date, clock: WallClock) -> Range<Date>? {
        let today = clock.localDay(of: instant)
        return [today, today - 1].lazy.compactMap { window.openSpan(onLocalDay: $0, clock: clock) }.first { $0.contains(instant) }
    }

    /// "limited to 500 KB/s until 18:00", "limited to 2.0 MB/s"; `nil` when unlimited now.
    public func description(at now: Date) -> String? {
        let cap = cap(at: now)
        guard let rate = cap.bytesPerSecond else { return nil }
        let limited = "limited to \(formatByteRate(Double(rate)))"
        guard let until = cap.until else { return limited }
        // A change is at most a day ahead (each window opens daily), so the time of day says when.
        let minutes = Int((WallClock(timeZone: timeZone).localTime(of: until) / 60).rounded(.down))
        let minuteOfDay = ((minutes % 1440) + 1440) % 1440
        let hours = minuteOfDay / 60, remainder = minuteOfDay % 60
        return "\(limited) until \(hours < 10 ? "0" : "")\(hours):\(remainder < 10 ? "0" : "")\(remainder)"
    }
}
