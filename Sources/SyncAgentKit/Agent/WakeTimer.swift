internal import CLinux
import FoundationEssentials
import Glibc

/// Wakes the agent at a wall-clock moment, through a `timerfd` its loop watches.
///
/// The scheduler thinks in wall-clock time ("the window opens at 01:00"), so the timer does
/// too: an absolute `CLOCK_REALTIME` timer fires at that moment even when the machine slept
/// in between, and `TFD_TIMER_CANCEL_ON_SET` makes it fire at once when someone sets the
/// clock, so the agent plans again instead of waking at the wrong time. No periodic wake-up
/// is needed to stay right.
/// - SeeAlso: https://man7.org/linux/man-pages/man2/timerfd_create.2.html
final class WakeTimer {
    /// Readable when the moment came or the clock was set.
    let descriptor: Int32

    init() {
        descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { fatalError("timerfd_create failed: \(systemReason())") }
    }

    deinit {
        close(descriptor)
    }

    /// Fires at `moment` (or at once if it has passed), replacing any earlier setting.
    func fire(at moment: Date) {
        let seconds = moment.timeIntervalSince1970.rounded(.down)
        var setting = itimerspec()
        setting.it_value.tv_sec = max(1, Int(seconds))
        setting.it_value.tv_nsec = Int((moment.timeIntervalSince1970 - seconds) * 1e9)
        timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &setting, nil)
    }

    /// Disarms the timer: nothing is due by time.
    func disarm() {
        var setting = itimerspec()
        timerfd_settime(descriptor, 0, &setting, nil)
    }

    /// Acknowledges a wake-up so the descriptor is quiet until the next one.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}
