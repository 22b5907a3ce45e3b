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
}
