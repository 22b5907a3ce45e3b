import Dispatch
import Synchronization
import Testing
@testable import SyncAgentKit

/// How `LibnotifyNotifier` bounds a blocking show: `BoundedCall`.
struct BoundedCallTests {
    struct Failure: Error, Equatable {
        var name: String
    }

    @Test func givesTheCallsResultWhenItComesFirst() async {
        let queue = DispatchQueue(label: "bounded-call-test")

        let result = await BoundedCall.run(on: queue, timeout: .seconds(30), onTimeout: { Failure(name: "timeout") }) {
            Result<Int, Failure>.success(42)
        }

        #expect(result == .success(42))
    }

    @Test func givesTheTimeoutWhileTheCallIsStillBlocked() async {
        let queue = DispatchQueue(label: "bounded-call-test")
        let release = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let start = clock.now

        let result = await BoundedCall.run(on: queue, timeout: .milliseconds(100), onTimeout: { Failure(name: "timeout") }) {
            release.wait()
            return Result<Int, Failure>.success(42)
        }
        release.signal()

        #expect(result == .failure(Failure(name: "timeout")))
        #expect(clock.now - start >= .milliseconds(100))
    }

    @Test func skipsACallStillQueuedWhenItsDeadlinePassed() async {
        let queue = DispatchQueue(label: "bounded-call-test")
        let release = DispatchSemaphore(value: 0)
        let callRan = Flag()
        // An earlier call that is stuck, the way a show to a silent server is.
        queue.async { release.wait() }

        let result = await BoundedCall.run(on: queue, timeout: .milliseconds(50), onTimeout: { Failure(name: "timeout") }) {
            callRan.set()
            return Result<Int, Failure>.success(2)
        }
        release.signal()
        queue.sync {}

        #expect(result == .failure(Failure(name: "timeout")))
        #expect(!callRan.isSet)
    }
}

/// A thread-safe "it happened".
private final class Flag: Sendable {
    private let value = Atomic(false)

    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }

    func set() {
        value.store(true, ordering: .sequentiallyConsistent)
    }
}
