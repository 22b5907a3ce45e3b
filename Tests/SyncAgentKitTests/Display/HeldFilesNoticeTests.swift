import Testing
@testable import SyncAgentKit

struct HeldFilesNoticeTests {
    @Test func everyFileStoppedAfterAReset() {
        let held: [(title: String, hold: Hold)] = [("A", .stopped), ("B", .stopped)]
        #expect(HeldFilesNotice.message(held: held, fileCount: 2)
            == "nothing to do: all 2 files of the manifest are stopped (as `syncagent reset` leaves them); "
            + "`syncagent start` releases them, then `syncagent --once` fetches them")
    }

    @Test func everyFilePausedOrMixed() {
        #expect(HeldFilesNotice.message(held: [("A", .paused)], fileCount: 1)
            == "nothing to do: the 1 file of the manifest is paused; `syncagent resume` continues it, then `syncagent --once` fetches it")
        #expect(HeldFilesNotice.message(held: [("A", .paused), ("B", .stopped)], fileCount: 2)?
            .hasPrefix("nothing to do: all 2 files of the manifest are paused (1) or stopped (1); `syncagent start` releases them") == true)
    }

    @Test func someFilesHeldAreNamed() {
        #expect(HeldFilesNotice.message(held: [("A", .paused)], fileCount: 3)
            == "left out, as you paused or stopped them: A (`syncagent start` releases them)")
        let many = (1...7).map { (title: "F\($0)", hold: Hold.paused) }
        #expect(HeldFilesNotice.message(held: many, fileCount: 10)?.contains("F1, F2, F3, F4 and 3 more") == true)
        #expect(HeldFilesNotice.message(held: [], fileCount: 3) == nil)
    }

    @Test func feedsHeldAreCountedAsFeeds() {
        #expect(HeldFilesNotice.message(held: [("ATP", .paused)], fileCount: 0, feedCount: 1)
            == "nothing to do: the 1 feed of the manifest is paused; `syncagent resume` continues it, then `syncagent --once` fetches it")
        #expect(HeldFilesNotice.message(held: [("A", .stopped), ("ATP", .stopped)], fileCount: 1, feedCount: 1)?
            .hasPrefix("nothing to do: all 2 files and feeds of the manifest are stopped") == true)
        #expect(HeldFilesNotice.message(held: [("ATP", .paused)], fileCount: 1, feedCount: 1)
            == "left out, as you paused or stopped them: ATP (`syncagent start` releases them)")
    }
}
