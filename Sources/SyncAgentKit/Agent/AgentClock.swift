import FoundationEssentials

/// The agent's wall clock: what time it is, and a descriptor its loop watches that becomes
/// readable at a moment it was asked to wake at.
///
/// ``SystemClock`` is the real one (a `timerfd`); tests give the agent a clock they move by
/// hand, so a schedule of hours is tested in milliseconds, without sleeps.
public protocol AgentClock: AnyObject, Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Readable once the moment given to ``wake(at:)`` has come (or the clock was set).
    var descriptor: Int32 { get }
    /// Becomes readable at `moment` (at once if it has passed), replacing any earlier setting.
    func wake(at moment: Date)
    /// Nothing is due by time: stay quiet.
    func disarm()
    /// Acknowledges a wake-up, so the descriptor is quiet until the next one.
    func acknowledge()
}

/// The real wall clock, with a ``WakeTimer``.
public final class SystemClock: AgentClock, @unchecked Sendable {
    // The timer's calls are single system calls on a descriptor the kernel serialises.
    private let timer = WakeTimer()

    public init() {}

    public func now() -> Date { Date() }
    public var descriptor: Int32 { timer.descriptor }
    public func wake(at moment: Date) { timer.fire(at: moment) }
    public func disarm() { timer.disarm() }
    public func acknowledge() { timer.acknowledge() }
}
