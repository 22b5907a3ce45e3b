import Testing
@testable import SyncAgentKit

/// When `--once` asks for logind's sleep delay: after a second of bodies arriving, once.
struct SleepDelayTimingTests {
    let origin = ContinuousClock.now

    static let receiving = TransferEvent.receiving(id: 1, validators: Validators(), offset: 0, expectedLength: 1_000)
    static let progress = TransferEvent.progress(id: 1, received: 500, expectedLength: 1_000)
    static let downloaded = TransferEvent.finished(id: 1, TransferCompletion(outcome: .downloaded(bytes: 1_000)))
    static let unchanged = TransferEvent.finished(id: 1, TransferCompletion(outcome: .unchanged))

    /// Feeds the body events among `events` (milliseconds from the origin) the way `--once`
    /// does; the times at which it asked.
    func asks(_ events: [(Int, TransferEvent)]) -> [Int] {
        var timing = SleepDelayTiming()
        return events.compactMap { milliseconds, event in
            event.isBodyArriving && timing.asksForDelay(bodyArrivingAt: origin + .milliseconds(milliseconds)) ? milliseconds : nil
        }
    }

    @Test func aBatchOverWithinTheSecondNeverAsks() {
        let events = [(0, TransferEvent.started(id: 1, offset: 0)), (10, Self.receiving)]
            + stride(from: 100, through: 900, by: 100).map { ($0, Self.progress) }
            + [(990, Self.downloaded)]
        #expect(asks(events) == [])
    }

    @Test func oneLongFileAsksAtItsFirstProgressAfterTheSecondAndOnlyOnce() {
        let events = [(0, TransferEvent.started(id: 1, offset: 0)), (50, Self.receiving)]
            + stride(from: 150, through: 5_050, by: 100).map { ($0, Self.progress) }
        #expect(asks(events) == [1_050])
    }

    @Test func manyShortFilesAskOnceTheBatchHasBeenReceivingForASecond() {
        // Each file takes 150 ms and reports no progress; the batch runs for three seconds.
        let events = (0..<20).flatMap { index -> [(Int, TransferEvent)] in
            let start = index * 150
            return [(start, .started(id: index, offset: 0)),
                    (start + 10, .receiving(id: index, validators: Validators(), offset: 0, expectedLength: 1_000)),
                    (start + 140, .finished(id: index, TransferCompletion(outcome: .downloaded(bytes: 1_000))))]
        }
        #expect(asks(events) == [1_060])
    }

    @Test func filesFoundUnchangedDoNotStartTheSecond() {
        // Three seconds of 304s, then one file that changed: its body starts the count.
        let events = stride(from: 0, through: 3_000, by: 100).map { ($0, Self.unchanged) }
            + [(3_050, Self.receiving), (3_900, Self.progress), (4_000, Self.progress), (4_100, Self.progress)]
        #expect(asks(events) == [4_100])
    }

    @Test func aReCheckWaitingForItsAnswersDoesNotStartTheSecond() {
        // The engine reports requests still waiting for their "304 Not Modified" as progress
        // of 0 bytes, ten times a second: three seconds of it, then one file that changed.
        let waiting = TransferEvent.progress(id: 1, received: 0, expectedLength: nil)
        let events = stride(from: 0, through: 3_000, by: 100).map { ($0, waiting) }
            + [(3_050, Self.receiving), (3_900, Self.progress), (4_000, Self.progress), (4_100, Self.progress)]
        #expect(asks(events) == [4_100])
    }

    @Test func onlyABodyArrivingAsks() {
        // A second and more after the first body, a retry and a file put in place do not ask:
        // nothing is on its way to disk at that moment.
        let events: [(Int, TransferEvent)] = [
            (0, Self.receiving),
            (1_200, .willRetry(id: 1, delay: .seconds(1), failure: TransferFailure(.network, "the connection timed out"))),
            (2_200, .started(id: 1, offset: 0)),
            (2_300, Self.downloaded),
            (2_400, Self.receiving),
        ]
        #expect(asks(events) == [2_400])
    }

    @Test func theClockIsNotReadOnceTheDelayWasAskedFor() {
        var timing = SleepDelayTiming()
        var reads = 0
        func now(_ milliseconds: Int) -> ContinuousClock.Instant {
            reads += 1
            return origin + .milliseconds(milliseconds)
        }
        let answers = [0, 1_000, 1_100].map { timing.asksForDelay(bodyArrivingAt: now($0)) }
        #expect(answers == [false, true, false])
        #expect(reads == 2)
    }
}
