import Testing
@testable import SyncAgentKit

/// `limits.min_free`, `limits.bandwidth` and `limits.bandwidth_windows`: read into
/// ``Manifest/Limits``, with every mistake explained at its line and column.
struct PoliteLimitsManifestTests {
    func load(_ limits: String) throws(InvalidManifest) -> Manifest {
        try LimitsManifest.load(limits)
    }

    @Test func minFreeIsASizeOrAShareOfTheDisk() throws {
        #expect(try load("min_free: 2GB").limits.minFree == .bytes(2_000_000_000))
        #expect(try load("min_free: 512MiB").limits.minFree == .bytes(512 << 20))
        #expect(try load("min_free: 10%").limits.minFree == .percent(10))
        #expect(try load("concurrent: 3").limits.minFree == nil)
        #expect(Manifest.FreeSpaceMargin.percent(10).bytes(ofFilesystemSize: 4_000) == 400)
    }

    @Test func bandwidthIsARatePerSecond() throws {
        #expect(try load("bandwidth: 2MB/s").limits.bandwidth.bytesPerSecond == 2_000_000)
        #expect(try load("bandwidth: 500KB/s").limits.bandwidth.bytesPerSecond == 500_000)
        #expect(try load("bandwidth: 1MiB/s").limits.bandwidth.bytesPerSecond == 1 << 20)
        #expect(try load("bandwidth: 64KiB/s").limits.bandwidth.bytesPerSecond == 64 << 10)
        #expect(try load("bandwidth: 800 B/s").limits.bandwidth.bytesPerSecond == 800)
        #expect(try load("concurrent: 3").limits.bandwidth.isUnlimited)
    }

    @Test func bandwidthWindowsAreReadInOrder() throws {
        let limits = try load("bandwidth_windows:\n    - { window: \"08:00-18:00\", bandwidth: 500KB/s }\n    - { window: \"22:00-06:00\", bandwidth: 5MB/s }").limits
        #expect(limits.bandwidth.windows == [
            .init(window: Manifest.DailyWindow(start: 480, end: 1080), bytesPerSecond: 500_000),
            .init(window: Manifest.DailyWindow(start: 1320, end: 360), bytesPerSecond: 5_000_000),
        ])
        #expect(limits.bandwidth.bytesPerSecond == nil)
    }

    @Test(arguments: [
        ("min_free: lots", "manifest.yaml:2:13: expected a size like \"2GB\" or a share of the disk like \"10%\" for `min_free` (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), found \"lots\""),
        ("min_free: 100%", "manifest.yaml:2:13: `min_free` as a share of the disk must be a whole percentage from 1% to 99%, found \"100%\""),
        ("bandwidth: 2MB", "manifest.yaml:2:14: expected a rate like \"2MB/s\" or \"500KB/s\" for `bandwidth` (units B/s, KB/s, MB/s, KiB/s, MiB/s), found \"2MB\""),
        ("bandwidth: 0KB/s", "manifest.yaml:2:14: expected a rate like \"2MB/s\" or \"500KB/s\" for `bandwidth` (units B/s, KB/s, MB/s, KiB/s, MiB/s), found \"0KB/s\""),
        ("bandwith: 2MB/s", "manifest.yaml:2:3: unknown key \"bandwith\" in `limits`; did you mean \"bandwidth\"?"),
        ("min_fre: 1GB", "manifest.yaml:2:3: unknown key \"min_fre\" in `limits`; did you mean \"min_free\"?"),
        ("bandwidth_windows: 500KB/s", "manifest.yaml:2:22: expected a list of windows such as - { window: \"08:00-18:00\", bandwidth: 500KB/s } for `bandwidth_windows`, found \"500KB/s\""),
        ("bandwidth_windows: [{ window: \"08:00-18:00\" }]", "manifest.yaml:2:23: missing key `bandwidth` in a `bandwidth_windows` item; expected { window: \"08:00-18:00\", bandwidth: 500KB/s }"),
        ("bandwidth_windows: [{ window: \"8-18\", bandwidth: 1MB/s }]", "manifest.yaml:2:33: expected a daily window of local time like \"01:00-06:00\" for `window`, found \"8-18\""),
        ("bandwidth_windows: [{ windw: \"08:00-18:00\", bandwidth: 1MB/s }]", "manifest.yaml:2:25: unknown key \"windw\" in a `bandwidth_windows` item; did you mean \"window\"?"),
    ])
    func mistakesAreExplained(limits: String, message: String) {
        #expect(LimitsManifest.problems(limits) == [message])
    }
}
