import Testing
@testable import SyncAgentKit

struct TitleMatcherTests {
    let titles = ["iOS Programming Guide", "Human Interface Guidelines", "AV Foundation", "AV Kit", "iPhone User Guide"]

    @Test func noTitlesMeansEveryFile() throws {
        #expect(try TitleMatcher.match([], in: titles) == [0, 1, 2, 3, 4])
    }

    @Test func exactTitlesAndUnambiguousPrefixesCaseBlind() throws {
        #expect(try TitleMatcher.match(["av foundation"], in: titles) == [2])
        #expect(try TitleMatcher.match(["iph", "HUMAN"], in: titles) == [1, 4])
        #expect(try TitleMatcher.match(["AV Kit", "av kit"], in: titles) == [3])
    }

    @Test func anAmbiguousPrefixListsTheCandidates() {
        #expect(throws: TitleMatchError(message: "\"AV\" could be any of \"AV Foundation\", \"AV Kit\"; type more of the title")) {
            try TitleMatcher.match(["AV"], in: titles)
        }
    }

    @Test func anUnknownTitleSuggestsCloseOnes() {
        #expect(throws: TitleMatchError(message: "no file is titled \"iPhone Usr Guide\"; did you mean \"iPhone User Guide\"?")) {
            try TitleMatcher.match(["iPhone Usr Guide"], in: titles)
        }
        #expect(throws: TitleMatchError(message: "no file is titled \"Guide\"; did you mean \"iOS Programming Guide\" or \"Human Interface Guidelines\" or \"iPhone User Guide\"?")) {
            try TitleMatcher.match(["Guide"], in: titles)
        }
        #expect(throws: TitleMatchError(message: "no file is titled \"zzz\"; `syncagent status` lists the titles")) {
            try TitleMatcher.match(["zzz"], in: titles)
        }
    }
}
