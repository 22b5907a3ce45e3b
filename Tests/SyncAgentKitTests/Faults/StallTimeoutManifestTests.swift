import Testing
@testable import SyncAgentKit

/// `limits.stall_timeout`: how long a transfer may receive nothing before it is dropped and
/// retried, so a stalled server costs seconds rather than minutes.
struct StallTimeoutManifestTests {
    func load(_ limits: String) throws(InvalidManifest) -> Manifest {
        try LimitsManifest.load(limits)
    }

    @Test func isReadAsADuration() throws {
        #expect(try load("stall_timeout: 20s").limits.stallTimeout == .seconds(20))
        #expect(try load("stall_timeout: 2m").limits.stallTimeout == .seconds(120))
        #expect(try load("concurrent: 3").limits == Manifest.Limits(concurrent: 3, perHost: 5, stallTimeout: nil))
    }

    @Test(arguments: [
        ("stall_timeout: soon", "manifest.yaml:2:18: expected a duration like \"30s\" or \"2m\" for `stall_timeout` (units ms, s, m, h, d), found \"soon\""),
        ("stall_timeout: 500ms", "manifest.yaml:2:18: `stall_timeout` must be between 1s and 1d, found \"500ms\""),
        ("stall_timeout: 2d", "manifest.yaml:2:18: `stall_timeout` must be between 1s and 1d, found \"2d\""),
        ("stall_timeout: [1s]", "manifest.yaml:2:18: expected a duration like \"30s\" for `stall_timeout`, found a list"),
        ("stall_timout: 5s", "manifest.yaml:2:3: unknown key \"stall_timout\" in `limits`; did you mean \"stall_timeout\"?"),
    ])
    func mistakesAreExplained(limits: String, message: String) {
        #expect(LimitsManifest.problems(limits) == [message])
    }
}
