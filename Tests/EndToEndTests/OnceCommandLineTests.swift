import Testing
@testable import syncagent

/// The plain command lines of `--once` are read without swift-argument-parser (its reflection
/// is a fifth of a small re-check): to the same values the parser makes of them, and every
/// other command line is left to the parser, its messages and its exit statuses.
struct OnceCommandLineTests {
    @Test(arguments: [
        ["--once"], ["--once", "--manifest", "m.yaml", "--state-dir", "state"], ["--manifest=m.yaml", "--once", "-q"],
        ["-v", "--once", "--no-notify", "--state-dir=/tmp/a state"], ["--once", "--dry-run", "--manifest", "a b.yaml"],
        ["--dry-run", "--once", "--quiet"], ["--verbose", "--state-dir", "s", "--once", "--manifest", "m=1.yaml"],
    ])
    func readsWhatTheParserReads(_ arguments: [String]) throws {
        let parsed = try #require(try SyncAgent.parseAsRoot(arguments) as? SyncAgent)
        let read = try #require(OnceCommandLine(arguments: arguments))
        #expect(read == parsed.onceCommandLine)
    }

    @Test(arguments: [
        [], ["--version"], ["--help"], ["check"], ["status", "--once"], ["--once", "--help"], ["--once", "--color", "never"],
        ["--once", "--limit-rate", "1MB/s"], ["--once", "-q", "-v"], ["--once", "-qv"], ["--once", "--once"], ["--once", "-q", "--quiet"],
        ["--once", "--manifest"], ["--once", "--manifest", "--quiet"], ["--once", "--manifest="], ["--once", "--state-dir", ""],
        ["--once", "--manifest", "a.yaml", "--manifest", "b.yaml"], ["--once", "--manifest=a.yaml", "--manifest", "b.yaml"],
        ["--once", "--", "x"], ["--once", "x"], ["--once", "--manifest", "-m.yaml"], ["--quiet", "--no-notify"],
    ])
    func leavesEveryOtherCommandLineToTheParser(_ arguments: [String]) {
        #expect(OnceCommandLine(arguments: arguments) == nil)
    }
}
