/// The time since the reporter was made, as the progress model takes it: a `Duration`
/// from a fixed origin, read from the monotonic clock so wall-clock changes do not bend
/// speeds or ETAs.
struct ElapsedClock: Sendable {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// A clock whose time starts now.
    init() {
        origin = clock.now
    }

    /// How long ago the clock was made.
    func now() -> Duration {
        clock.now - origin
    }
}
