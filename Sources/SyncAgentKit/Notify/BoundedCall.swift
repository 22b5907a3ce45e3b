import Dispatch
import Synchronization

/// Runs a blocking call on a queue and stops waiting for it at a deadline.
///
/// A blocking C call cannot be interrupted: it runs to its end on the queue and its result
/// is dropped if the deadline came first. A call still waiting in the queue when its
/// deadline passes is skipped, so nothing happens after its caller was told it failed.
enum BoundedCall {
    /// Runs `work` on `queue` and returns its result, or `onTimeout()` once `timeout` has
    /// passed without one.
    static func run<Success: Sendable, Failure: Error>(
        on queue: DispatchQueue,
        timeout: Duration,
        onTimeout: @escaping @Sendable () -> Failure,
        _ work: @escaping @Sendable () -> Result<Success, Failure>
    ) async -> Result<Success, Failure> {
        await withCheckedContinuation { continuation in
            let settlement = Settlement(continuation)
            queue.async {
                guard !settlement.isSettled else { return }
                settlement.settle(work())
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
                settlement.settle(.failure(onTimeout()))
            }
        }
    }
}

/// The one answer a ``BoundedCall`` gives: whichever of the call and the deadline comes first.
private final class Settlement<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Whether an answer was already given.
    var isSettled: Bool {
        continuation.withLock { $0 == nil }
    }

    /// Gives `value` as the answer unless one was already given.
    func settle(_ value: Value) {
        let pending = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
    }
}

extension Duration {
    /// The same length of time for Dispatch, to the nanosecond.
    fileprivate var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
