import Testing
@testable import SyncAgentKit

struct TimeFormatTests {
    @Test(arguments: [
        (.zero, "0 s"), (.milliseconds(300), "1 s"), (.seconds(12), "12 s"), (.seconds(59), "59 s"),
        (.milliseconds(59_200), "1 min"), (.seconds(89), "1 min"), (.seconds(90), "2 min"),
        (.seconds(180), "3 min"), (.seconds(3599), "1 h"), (.seconds(3900), "1 h 5 min"),
        (.seconds(7200), "2 h"), (.seconds(400_000), "> 99 h"),
    ] as [(Duration, String)])
    func formatsRemainingTime(remaining: Duration, expected: String) {
        #expect(formatRemainingTime(remaining) == expected)
    }

    @Test func unknownOrNegativeRemainingTimeIsADash() {
        #expect(formatRemainingTime(nil) == "—")
        #expect(formatRemainingTime(.seconds(-1)) == "—")
    }

    @Test(arguments: [
        (.zero, "0.0 s"), (.milliseconds(400), "0.4 s"), (.milliseconds(3_240), "3.2 s"),
        (.milliseconds(9_960), "10 s"), (.seconds(45), "45 s"), (.seconds(180), "3 min"),
        (.seconds(185), "3 min 5 s"), (.seconds(3900), "1 h 5 min"), (.seconds(7200), "2 h"),
    ] as [(Duration, String)])
    func formatsElapsedTime(elapsed: Duration, expected: String) {
        #expect(formatElapsedTime(elapsed) == expected)
    }

    @Test func formatsByteRates() {
        #expect(formatByteRate(3_100_000) == "3.1 MB/s")
        #expect(formatByteRate(512) == "512 bytes/s")
        #expect(formatByteRate(-5) == "0 bytes/s")
        #expect(formatByteRate(.nan) == "0 bytes/s")
        #expect(formatByteRate(.infinity) == "0 bytes/s")
    }

    @Test(arguments: [
        (.milliseconds(49), "0.0 s"), (.milliseconds(50), "0.1 s"), (.milliseconds(999), "1.0 s"),
        (.milliseconds(1_000), "1.0 s"), (.milliseconds(9_949), "9.9 s"), (.milliseconds(9_950), "10 s"),
        (.milliseconds(59_499), "59 s"), (.milliseconds(59_500), "1 min"), (.seconds(61), "1 min 1 s"),
        (.milliseconds(3_599_499), "59 min 59 s"), (.milliseconds(3_599_500), "1 h"), (.seconds(3_629), "1 h"),
        (.seconds(3_630), "1 h 1 min"), (.seconds(-4), "0.0 s"), (.seconds(400_000), "111 h 7 min"),
    ] as [(Duration, String)])
    func formatsElapsedTimeAtItsEdges(elapsed: Duration, expected: String) {
        #expect(formatElapsedTime(elapsed) == expected)
    }

    /// The bytes written for a time taken are the text interpolation gave, which this test
    /// keeps as it was: around every edge where the wording changes, and on a spread of times.
    @Test func writesWhatInterpolationWrote() {
        var times: [Duration] = []
        for edgeMilliseconds in [0, 50, 1_000, 9_950, 10_000, 59_500, 60_000, 3_599_500, 3_600_000, 3_630_000, 86_400_000] {
            times += (-2...2).map { .milliseconds(edgeMilliseconds + $0) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { times.append(.microseconds(Int64.random(in: 0...10_000_000_000, using: &generator))) }
        for time in times {
            #expect(formatElapsedTime(time) == interpolatedElapsedTime(time), "\(time)")
        }
    }

    /// `formatElapsedTime` as it was written with string interpolation.
    private func interpolatedElapsedTime(_ elapsed: Duration) -> String {
        let seconds = max(0, elapsed.progressSeconds)
        if seconds < 9.95 {
            let tenths = Int((seconds * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let wholeSeconds = Int(seconds.rounded())
        if wholeSeconds < 60 { return "\(wholeSeconds) s" }
        if wholeSeconds < 3600 {
            let (minutes, secondsLeft) = wholeSeconds.quotientAndRemainder(dividingBy: 60)
            return secondsLeft == 0 ? "\(minutes) min" : "\(minutes) min \(secondsLeft) s"
        }
        let minutes = (wholeSeconds + 30) / 60
        let (hours, minutesLeft) = minutes.quotientAndRemainder(dividingBy: 60)
        return minutesLeft == 0 ? "\(hours) h" : "\(hours) h \(minutesLeft) min"
    }
}
