import FoundationEssentials

/// Local wall-clock time in one time zone, for rules written in local time (daily windows, a
/// `not_before` day).
///
/// Local time is counted like Unix time, in seconds since 1970-01-01 00:00 *on the local
/// clock*, so a local day is a plain multiple of 86,400. Across a daylight-saving change the
/// mapping from instants is not one-to-one: in spring an hour of local time never happens, in
/// autumn one happens twice. ``firstInstant(reaching:)`` is the one place that resolves this.
struct WallClock: Sendable {
    /// Seconds in a local day: local time has no daylight-saving jumps by construction.
    static let secondsPerDay: Int64 = 86_400

    /// The zone whose clock this is.
    let timeZone: TimeZone

    /// What the local clock shows at `instant`, in local seconds.
    func localTime(of instant: Date) -> Double {
        instant.timeIntervalSince1970 + Double(offset(at: instant.timeIntervalSince1970))
    }

    /// The local day `instant` falls on, in days since 1970-01-01.
    func localDay(of instant: Date) -> Int64 {
        Int64((localTime(of: instant) / Double(Self.secondsPerDay)).rounded(.down))
    }

    /// The first instant at which the local clock shows `localTime` or later.
    ///
    /// Normally the one instant it shows `localTime`; for a time that happens twice (autumn),
    /// the first; for a time that never happens (spring), the moment the clock jumps past it.
    func firstInstant(reaching localTime: Int64) -> Date {
        // No time zone changes offset twice within a few days, so the offsets around are the
        // one before and the one after any change near `localTime`.
        let nearbyOffsets = Set([-2, 2].map { offset(at: Double(localTime + $0 * Self.secondsPerDay)) })
        let matches = nearbyOffsets
            .map { localTime - $0 }
            .filter { offset(at: Double($0)) + $0 == localTime }
        if let first = matches.min() {
            return Date(timeIntervalSince1970: Double(first))
        }
        // The clock jumps over `localTime`: the jump lies between these two instants, where the
        // clock shows less than `localTime` before it and more after it.
        var before = localTime - nearbyOffsets.max()!
        var after = localTime - nearbyOffsets.min()!
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if offset(at: Double(middle)) + middle >= localTime {
                after = middle
            } else {
                before = middle
            }
        }
        return Date(timeIntervalSince1970: Double(after))
    }

    /// The zone's offset from UTC at an instant given in seconds since 1970, in seconds.
    private func offset(at instant: Double) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
    }
}
