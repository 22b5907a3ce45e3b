import FoundationEssentials
import Glibc

/// A mutex with a condition variable: what `NSCondition` is, without Foundation's ICU-laden
/// library (syncagent links only FoundationEssentials, so that it starts in a few
/// milliseconds; see docs/benchmarks.md).
///
/// Used as `NSCondition` is: `lock()`, then `wait()` in a loop that re-checks the guarded
/// state, then `unlock()`. Waits until a wall-clock deadline use `CLOCK_REALTIME`, as
/// `pthread_cond_timedwait` does by default.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock until signalled, then takes it again. Wakes may be spurious: re-check.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// As ``wait()``, but gives up at `deadline`; returns `false` when it passed.
    func wait(until deadline: Date) -> Bool {
        let seconds = deadline.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiter.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(condition) }
}
