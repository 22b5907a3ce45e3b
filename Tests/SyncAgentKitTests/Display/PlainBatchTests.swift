import Testing
@testable import SyncAgentKit

struct PlainBatchTests {
    @Test func aFinishedFileTookTheTimeSinceItStarted() {
        var batch = PlainBatch()
        batch.start(path: "/d/a", title: "A", at: .seconds(1))
        #expect(batch.activeCount == 1)
        #expect(batch.title(of: "/d/a") == "A")
        #expect(batch.finish(path: "/d/a", outcome: .downloaded(bytes: 10), at: .milliseconds(3_500)) == .milliseconds(2_500))
        #expect(batch.activeCount == 0)
        #expect(batch.title(of: "/d/a") == nil)
        #expect(batch.tally.downloaded == 1 && batch.tally.downloadedBytes == 10)
    }

    /// A retry starts the file again: it keeps its first start time, and the title it is
    /// started with now.
    @Test func aRetryKeepsItsStartAndTakesTheNewTitle() {
        var batch = PlainBatch()
        batch.start(path: "/d/a", title: "A", at: .seconds(1))
        batch.start(path: "/d/a", title: "A again", at: .seconds(5))
        #expect(batch.activeCount == 1)
        #expect(batch.title(of: "/d/a") == "A again")
        #expect(batch.finish(path: "/d/a", outcome: .unchanged, at: .seconds(6)) == .seconds(5))
    }

    /// A file that ends without having been seen to start is counted, with no time.
    @Test func aFileNeverStartedIsCountedWithoutATime() {
        var batch = PlainBatch()
        batch.start(path: "/d/b", title: "B", at: .zero)
        #expect(batch.finish(path: "/d/a", outcome: .failed(TransferFailure(.network, "reset")), at: .seconds(1)) == nil)
        #expect(batch.tally.failed == 1)
        #expect(batch.activeCount == 1)
    }
}
