import FoundationEssentials

/// One thread of its own that runs blocking calls in order, and callers that stop waiting
/// for a call at a deadline.
///
/// A blocking C call cannot be interrupted: it runs to its end on the worker and its result is
/// dropped if the deadline came first. A call still waiting its turn when its deadline passes
/// is skipped, so nothing happens after its caller was told it failed.
///
/// Built on a plain thread and a condition variable, not on Dispatch (see
/// ``startDetachedThread(named:_:)``).
final class SerialWorker: @unchecked Sendable {
    private let condition = ConditionLock()
    /// Guarded by `condition`.
    private var jobs: [() -> Void] = []
    private var started = false
    private let name: String

    init(name: String) {
        self.name = name
    }

    /// Runs `work` on the worker and returns its result, or `nil` once `timeout` has passed
    /// without one.
    func run<Value: Sendable>(timeout: Duration, _ work: @escaping @Sendable () -> Value) -> Value? {
        let settlement = Settlement<Value>()
        enqueue {
            guard !settlement.isAbandoned else { return }
            settlement.settle(work())
        }
        return settlement.wait(until: Date().addingTimeInterval(timeout.timeInterval))
    }

    /// Runs `job` on the worker after the jobs before it, without waiting for it.
    func enqueue(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        if !started {
            started = true
            startDetachedThread(named: name) { [self] in serve() }
        }
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// The one answer to a ``SerialWorker/run(timeout:_:)``: the call's value, or abandonment
/// at the deadline, whichever comes first.
final class Settlement<Value: Sendable>: @unchecked Sendable {
    private let condition = ConditionLock()
    /// Guarded by `condition`.
    private var value: Value?
    private var abandoned = false

    var isAbandoned: Bool {
        condition.lock()
        defer { condition.unlock() }
        return abandoned
    }

    func settle(_ result: Value) {
        condition.lock()
        if !abandoned { value = result }
        condition.signal()
        condition.unlock()
    }

    /// The value, or `nil` (and abandoned from then on) if none came by `deadline`.
    func wait(until deadline: Date) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            if !condition.wait(until: deadline) {
                if value == nil { abandoned = true }
                break
            }
        }
        return value
    }
}
