import FoundationEssentials

extension Manifest.NotBefore {
    /// The moment this stands for on `clock`: the instant as written, or the day's first
    /// moment in local time (midnight, or when the clocks jump past it).
    func instant(on clock: WallClock) -> Date {
        switch self {
        case .instant(let date):
            date
        case .day(let day):
            clock.firstInstant(reaching: Int64(day.daysSinceEpoch) * WallClock.secondsPerDay)
        }
    }
}
