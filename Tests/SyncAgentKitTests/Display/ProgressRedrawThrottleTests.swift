import Testing
@testable import SyncAgentKit

struct ProgressRedrawThrottleTests {
    @Test func redrawsAtOnceWhenTheLastRedrawIsOldEnough() {
        var throttle = ProgressRedrawThrottle()
        #expect(throttle.changed(at: .zero) == .redrawNow)
        throttle.didRedraw(at: .zero)
        #expect(throttle.changed(at: .milliseconds(150)) == .redrawNow)
    }

    @Test func defersAChangeThatComesTooSoon() {
        var throttle = ProgressRedrawThrottle(interval: .milliseconds(100))
        throttle.didRedraw(at: .zero)
        #expect(throttle.changed(at: .milliseconds(30)) == .redrawLater(at: .milliseconds(100)))
        #expect(throttle.changed(at: .milliseconds(50)) == .alreadyScheduled)
        #expect(throttle.wakeUp(at: .milliseconds(100)) == .redrawNow)
        throttle.didRedraw(at: .milliseconds(100))
        #expect(throttle.changed(at: .milliseconds(120)) == .redrawLater(at: .milliseconds(200)))
    }

    @Test func anEarlyWakeUpAsksAgain() {
        var throttle = ProgressRedrawThrottle(interval: .milliseconds(100))
        throttle.didRedraw(at: .zero)
        _ = throttle.changed(at: .milliseconds(10))
        #expect(throttle.wakeUp(at: .milliseconds(95)) == .redrawLater(at: .milliseconds(100)))
    }

    @Test func aFloodOfEventsGivesAtMostTenRedrawsASecond() {
        var throttle = ProgressRedrawThrottle(interval: .milliseconds(100))
        var redraws: [Duration] = []
        var wakeUp: Duration?
        // 10,000 events in one second, with the deferred wake-ups a board would arrange.
        for tick in 0..<10_000 {
            let now = Duration.microseconds(tick * 100)
            if let due = wakeUp, now >= due {
                wakeUp = nil
                if throttle.wakeUp(at: now) == .redrawNow {
                    throttle.didRedraw(at: now)
                    redraws.append(now)
                }
            }
            switch throttle.changed(at: now) {
            case .redrawNow:
                throttle.didRedraw(at: now)
                redraws.append(now)
            case .redrawLater(let due):
                wakeUp = due
            case .alreadyScheduled:
                break
            }
        }
        #expect(redraws.count == 10)
        #expect(zip(redraws, redraws.dropFirst()).allSatisfy { $1 - $0 >= .milliseconds(100) })
        #expect(wakeUp != nil)
    }
}
