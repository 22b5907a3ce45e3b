import Testing
@testable import SyncAgentKit

/// `limits.min_free`, `limits.bandwidth` and `limits.bandwidth_windows`: read into
/// ``Manifest/Limits``, with every mistake explained at its line and column.
struct PoliteLimitsManifestTests {
    static let context = ManifestLoader.Context(
        manifestPath: "manifest.yaml", homeDirectory: "/home/ada",
        defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
    )

    func load(_ limits: String) throws(InvalidManifest) -> Manifest {
        try ManifestLoader(context: Self.context).load(Array("limits:\n  \(limits)\nfiles: []\n".utf8))
    }

    @Test func minFreeIsASizeOrAShareOfTheDisk() throws {
        #expect(try load("min_free: 2GB").limits.minFree == .bytes(2_000_000_000))
        #expect(try load("min_free: 512MiB").limits.minFree == .bytes(512 << 20))
        #expect(try load("min_free: 10%").limits.minFree == .percent(10))
        #expect(try load("concurrent: 3").limits.minFree == nil)
        #expect(Manifest.FreeSpaceMargin.percent(10).bytes(ofFilesystemSize: 4_000) == 400)
    }

    @Test(arguments: [
        ("min_free: lots", "manifest.yaml:2:13: expected a size like \"2GB\" or a share of the disk like \"10%\" for `min_free` (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), found \"lots\""),
        ("min_free: 100%", "manifest.yaml:2:13: `min_free` as a share of the disk must be a whole percentage from 1% to 99%, found \"100%\""),
        ("min_fre: 1GB", "manifest.yaml:2:3: unknown key \"min_fre\" in `limits`; did you mean \"min_free\"?"),
    ])
    func mistakesAreExplained(limits: String, message: String) {
        #expect(throws: InvalidManifest.self) { try load(limits) }
        do {
            _ = try load(limits)
        } catch {
            #expect(error.errors.map(\.description) == [message])
        }
    }
}
