import Testing
@testable import SyncAgentKit

struct BackoffRangeTests {
    @Test(arguments: [
        ("1s..1m", Duration.seconds(1), Duration.seconds(60)),
        ("500ms..2h", .milliseconds(500), .seconds(7_200)),
        ("30s .. 1d", .seconds(30), .seconds(86_400)),
        ("1m..1m", .seconds(60), .seconds(60)),
    ])
    func readsRanges(text: String, minimum: Duration, maximum: Duration) throws {
        #expect(try BackoffRange.parse(text) == BackoffRange(minimum: minimum, maximum: maximum))
    }

    @Test(arguments: ["fast", "1s", "1s...1m", "1s..", "..1m", "1 s..1m", "1w..2w", "-1s..1m", "1.5s..1m", "99999999s..1d"])
    func refusesMalformedRanges(text: String) {
        #expect(throws: BackoffRange.Problem(message: "expected a range like \"1s..1m\" for `backoff` (units ms, s, m, h, d), found \(TextQuoting.quoted(text))")) {
            try BackoffRange.parse(text)
        }
    }

    @Test func refusesAZeroStartAndAShrinkingRange() {
        #expect(throws: BackoffRange.Problem.self) { try BackoffRange.parse("0ms..1s") }
        #expect(throws: BackoffRange.Problem.self) { try BackoffRange.parse("2s..1999ms") }
    }
}
