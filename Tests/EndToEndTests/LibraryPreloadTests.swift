import SyncAgentKit
import Testing

/// Which command lines open libcurl and libcrypto on a thread of their own as the process
/// starts (SharedLibraryPreload, from before `main`), while the arguments are read: `--once` with
/// transfers, and nothing else — `--version`, `check` and `status` never pay for libcurl's
/// tree (LinkageTests), and a dry run transfers nothing.
struct LibraryPreloadTests {
    @Test(arguments: [
        ["--once"], ["--once", "--manifest", "m.yaml", "--state-dir", "s"], ["-q", "--once"], ["--once", "--limit-rate", "1MB/s"],
    ])
    func aBatchOfTransfersOpensItsLibrariesAsItStarts(_ arguments: [String]) {
        #expect(SharedLibraryPreload.mayTransfer(arguments: arguments))
    }

    @Test(arguments: [[], ["--version"], ["check"], ["status"], ["--once", "--dry-run"], ["--dry-run", "--once"], ["pause", "Guide"]])
    func otherCommandsOpenNothingAhead(_ arguments: [String]) {
        #expect(!SharedLibraryPreload.mayTransfer(arguments: arguments))
    }
}
