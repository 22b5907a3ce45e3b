import Testing
@testable import SyncAgentKit

struct EveryTextTests {
    @Test(arguments: [
        ("1d", Duration.seconds(86_400)), ("6h", .seconds(21_600)), ("90m", .seconds(5_400)),
        ("30s", .seconds(30)), ("250ms", .milliseconds(250)), (" 2d ", .seconds(172_800)),
    ])
    func readsDurations(text: String, every: Duration) throws {
        #expect(try EveryText.parse(text) == every)
    }

    @Test(arguments: ["daily", "1", "1w", "1.5h", "-1h", "h", "1 h", "99999999d"])
    func refusesWhatIsNotADuration(text: String) {
        #expect(throws: ValueProblem("expected a duration like \"6h\" or \"1d\" for `every` (units ms, s, m, h, d), found \(TextQuoting.quoted(text))")) {
            try EveryText.parse(text)
        }
    }

    @Test(arguments: ["0s", "0ms", "0d"])
    func refusesZero(text: String) {
        #expect(throws: ValueProblem("`every` must be above zero, found \(TextQuoting.quoted(text))")) {
            try EveryText.parse(text)
        }
    }
}
