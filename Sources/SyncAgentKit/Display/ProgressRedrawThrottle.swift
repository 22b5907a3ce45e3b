/// Decides when a progress board may redraw: at most once per `interval`, however many
/// events arrive, and never leaving the last change undrawn.
///
/// An event that comes too soon after a redraw asks for one later, at the end of the
/// interval; events until then find it already scheduled. Times are durations since an
/// origin the caller picks.
public struct ProgressRedrawThrottle: Sendable, Equatable {
    /// What the caller should do about a change.
    public enum Decision: Sendable, Equatable {
        /// Redraw now, then call ``ProgressRedrawThrottle/didRedraw(at:)``.
        case redrawNow
        /// Arrange to call ``ProgressRedrawThrottle/wakeUp(at:)`` at this time.
        case redrawLater(at: Duration)
        /// A later redraw is already arranged; it will show this change.
        case alreadyScheduled
    }

    /// The shortest time between two redraws.
    public let interval: Duration

    private var lastRedraw: Duration?
    private var scheduled: Duration?

    /// A throttle that allows a redraw every `interval` (ten a second by default).
    public init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// Something changed at `time`.
    public mutating func changed(at time: Duration) -> Decision {
        if scheduled != nil { return .alreadyScheduled }
        guard let lastRedraw, time < lastRedraw + interval else { return .redrawNow }
        scheduled = lastRedraw + interval
        return .redrawLater(at: lastRedraw + interval)
    }

    /// A redraw arranged by ``Decision/redrawLater(at:)`` is due; the answer says whether
    /// to redraw now or, if the wake-up came early, when to try again.
    public mutating func wakeUp(at time: Duration) -> Decision {
        scheduled = nil
        return changed(at: time)
    }

    /// The board was redrawn at `time`.
    public mutating func didRedraw(at time: Duration) {
        lastRedraw = time
        scheduled = nil
    }
}
