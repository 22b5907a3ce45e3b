/// When `--once` asks logind to delay sleep (``SleepInhibitor``): once bodies have been
/// arriving for ``patience``, at the first body event (a file starting to arrive, or its
/// progress) from then on — never for a batch that finds every file unchanged, nor for one
/// that is over within the second.
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

    /// Notes `event`, seen at `now`; true exactly once: when this is the moment to ask.
    /// `now` is read only for a body event before the delay is asked for: a batch of 10,000
    /// files sends 40,000 events.
    public mutating func asksForDelay(after event: TransferEvent, at now: @autoclosure () -> ContinuousClock.Instant) -> Bool {
        switch event {
        case .receiving, .progress: break
        case .started, .willRetry, .finished: return false
        }
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
