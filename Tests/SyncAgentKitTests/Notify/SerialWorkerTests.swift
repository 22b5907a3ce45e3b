import Foundation
import Synchronization
import Testing
@testable import SyncAgentKit

/// How `LibnotifyNotifier` bounds a blocking show: `SerialWorker`.
struct SerialWorkerTests {
    @Test func givesTheCallsResultWhenItComesFirst() {
        let worker = SerialWorker(name: "test-worker")
        #expect(worker.run(timeout: .seconds(30)) { 42 } == 42)
    }

    @Test func givesUpAtTheDeadlineWhileTheCallIsStillBlocked() {
        let worker = SerialWorker(name: "test-worker")
        let release = Gate()
        let clock = ContinuousClock()
        let start = clock.now
        let result = worker.run(timeout: .milliseconds(100)) { () -> Int in
            release.wait()
            return 42
        }
        release.open()
        #expect(result == nil)
        #expect(clock.now - start >= .milliseconds(100))
    }

    @Test func skipsACallStillQueuedWhenItsDeadlinePassed() {
        let worker = SerialWorker(name: "test-worker")
        let release = Gate()
        let callRan = Atomic(false)
        // An earlier call that is stuck, the way a show to a silent server is.
        _ = worker.run(timeout: .milliseconds(10)) { release.wait() }
        let result = worker.run(timeout: .milliseconds(50)) { () -> Int in
            callRan.store(true, ordering: .sequentiallyConsistent)
            return 2
        }
        release.open()
        // Anything queued behind the skipped call still runs, in order.
        #expect(worker.run(timeout: .seconds(30)) { 3 } == 3)
        #expect(result == nil)
        let ran = callRan.load(ordering: .sequentiallyConsistent)
        #expect(!ran)
    }

    @Test func runsEveryCallOnOneThreadOfItsOwn() {
        let worker = SerialWorker(name: "test-worker")
        let threads = (0..<5).map { _ in worker.run(timeout: .seconds(30)) { UInt(pthread_self()) } }
        #expect(Set(threads).count == 1)
        #expect(threads.first != UInt(pthread_self()))
    }
}

/// A one-shot gate a blocked call waits at.
private final class Gate: Sendable {
    private let opened = Mutex(false)

    func open() { opened.withLock { $0 = true } }

    func wait() {
        while !opened.withLock({ $0 }) { usleep(1_000) }
    }
}
