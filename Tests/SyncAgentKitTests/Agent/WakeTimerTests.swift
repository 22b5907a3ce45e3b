import Foundation
import Glibc
import Testing
@testable import SyncAgentKit

struct WakeTimerTests {
    /// Waits up to `limit` for the descriptor to become readable.
    func readable(_ descriptor: Int32, within limit: Duration) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)) == 1
    }

    @Test func firesAtTheWallClockMomentAndNotBefore() {
        let timer = WakeTimer()
        timer.fire(at: Date().addingTimeInterval(0.3))
        #expect(!readable(timer.descriptor, within: .milliseconds(100)))
        #expect(readable(timer.descriptor, within: .seconds(2)))
        timer.acknowledge()
        #expect(!readable(timer.descriptor, within: .milliseconds(50)))
    }

    @Test func aMomentInThePastFiresAtOnce() {
        let timer = WakeTimer()
        timer.fire(at: Date().addingTimeInterval(-60))
        #expect(readable(timer.descriptor, within: .milliseconds(200)))
    }

    @Test func aDisarmedTimerStaysQuiet() {
        let timer = WakeTimer()
        timer.fire(at: Date().addingTimeInterval(0.1))
        timer.disarm()
        #expect(!readable(timer.descriptor, within: .milliseconds(300)))
    }
}
