import Foundation
import Glibc
@testable import SyncAgentKit

/// A wall clock a test moves by hand: ``advance(by:)`` makes the descriptor readable when the
/// moment the agent asked to wake at has come, as the real timer would.
final class ManualClock: AgentClock, @unchecked Sendable {
    let descriptor: Int32
    private let bell: Int32
    private let lock = NSLock()
    private var current: Date
    private var wakeAt: Date?

    init(at start: Date) {
        current = start
        (descriptor, bell) = nonBlockingPipe()
    }

    deinit {
        close(descriptor)
        close(bell)
    }

    func now() -> Date { lock.withLock { current } }

    func wake(at moment: Date) {
        lock.withLock { wakeAt = moment }
        ringIfDue()
    }

    func disarm() { lock.withLock { wakeAt = nil } }

    func acknowledge() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {}
    }

    /// The moment the agent last asked to wake at, if armed.
    var armedMoment: Date? { lock.withLock { wakeAt } }

    /// Moves the clock forward; rings if the armed moment has come.
    func advance(by interval: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(interval) }
        ringIfDue()
    }

    private func ringIfDue() {
        let due = lock.withLock { () -> Bool in
            guard let wakeAt, wakeAt <= current else { return false }
            self.wakeAt = nil
            return true
        }
        guard due else { return }
        var byte: UInt8 = 1
        _ = write(bell, &byte, 1)
    }
}
