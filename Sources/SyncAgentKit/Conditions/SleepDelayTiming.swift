/// When `--once` asks logind to delay sleep (``SleepInhibitor``): once bodies have been
/// arriving for ``patience``, at the first body event (``TransferEvent/isBodyArriving``) from
/// then on — never for a batch that finds every file unchanged, nor for one that is over
/// within the second.
///
/// Asking is not free: it loads GLib, GObject and GIO (about 2.6 MiB resident) and takes a
/// round trip on the system bus, which a batch of small changes would pay for a lock held a
/// few milliseconds. A suspend that does meet so short a batch costs nothing the batch
/// guarantees: an interrupted file is never put in place unchecked, and the next run continues
/// it. A batch still transferring keeps producing body events — each file starts with one,
/// and progress follows up to ten times a second — so a batch that runs past its first
/// second, whether one long file or many short ones, asks a moment after it.
public struct SleepDelayTiming: Sendable {
    private enum State {
        case waitingForBody
        case receivingSince(ContinuousClock.Instant)
        case asked
    }

    /// How long bodies must have been arriving before the delay is asked for.
    public static let patience = Duration.seconds(1)

    private var state = State.waitingForBody

    public init() {}

    /// Notes a body event seen at `now`; true exactly once: when this is the moment to ask.
    /// `now` is not read once the delay has been asked for (10,000 files send 20,000 body
    /// events).
    public mutating func asksForDelay(bodyArrivingAt now: @autoclosure () -> ContinuousClock.Instant) -> Bool {
        switch state {
        case .waitingForBody:
            state = .receivingSince(now())
            return false
        case .receivingSince(let start):
            guard now() - start >= Self.patience else { return false }
            state = .asked
            return true
        case .asked:
            return false
        }
    }
}

extension TransferEvent {
    /// Whether the event says a body is on its way to disk (it began, or more of it came):
    /// what ``SleepDelayTiming`` counts. Progress of nothing is not: the engine reports a
    /// transfer still waiting for its answer as having received 0 bytes, and a re-check's
    /// conditional requests, answered "304 Not Modified", wait so through its whole run.
    /// Inlined: `--once` asks it of every event.
    @inlinable public var isBodyArriving: Bool {
        switch self {
        case .receiving: true
        case .progress(_, let received, _): received > 0
        case .started, .willRetry, .finished: false
        }
    }
}
