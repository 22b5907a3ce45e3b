import Testing
@testable import SyncAgentKit

struct ProgressBatchTests {
    @Test func listsRunningFilesInTheOrderTheyStarted() {
        var batch = ProgressBatch()
        for name in ["c", "a", "b"] {
            batch.start(path: "/d/\(name)", title: name.uppercased(), receivedBytes: 0, expectedBytes: 10, at: .zero)
        }
        #expect(batch.activeRows().map(\.title) == ["C", "A", "B"])
        #expect(batch.activeRows(limit: 2).map(\.title) == ["C", "A"])
        #expect(batch.activeRows(limit: 0).isEmpty)
        #expect(batch.activeCount == 3)
    }

    @Test func updatesOnlyRunningFiles() {
        var batch = ProgressBatch()
        batch.start(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 10, at: .zero)
        batch.update(path: "/d/a", receivedBytes: 4, expectedBytes: 10, at: .seconds(1))
        batch.update(path: "/d/unknown", receivedBytes: 4, expectedBytes: 10, at: .seconds(1))
        #expect(batch.activeRows().map(\.receivedBytes) == [4])
        #expect(batch.activeCount == 1)
    }

    @Test func finishingRemovesTheRowCountsItAndTellsHowLongItTook() {
        var batch = ProgressBatch()
        batch.start(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 10, at: .seconds(2))
        let elapsed = batch.finish(path: "/d/a", outcome: .downloaded(bytes: 10), at: .seconds(5))
        #expect(elapsed == .seconds(3))
        #expect(batch.activeCount == 0)
        #expect(batch.tally.downloaded == 1)
        #expect(batch.tally.downloadedBytes == 10)
    }

    @Test func countsAFileThatNeverStarted() {
        var batch = ProgressBatch()
        let elapsed = batch.finish(path: "/d/b", outcome: .unchanged, at: .seconds(1))
        #expect(elapsed == nil)
        #expect(batch.tally.unchanged == 1)
    }

    @Test func aRetryKeepsThePlaceAndTheStartTime() throws {
        var batch = ProgressBatch()
        batch.start(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 10, at: .seconds(1))
        batch.start(path: "/d/b", title: "B", receivedBytes: 0, expectedBytes: 10, at: .seconds(2))
        batch.scheduleRetry(path: "/d/a", after: .seconds(4), reason: "connection reset", at: .seconds(3))
        let waiting = try #require(batch.activeRows().first)
        #expect(waiting.retry == ProgressRow.Retry(at: .seconds(7), reason: "connection reset"))

        batch.start(path: "/d/a", title: "A", receivedBytes: 6, expectedBytes: 10, at: .seconds(7))
        let resumed = try #require(batch.activeRows().first)
        #expect(resumed.title == "A")
        #expect(resumed.retry == nil)
        #expect(resumed.receivedBytes == 6)
        #expect(resumed.startedAt == .seconds(1))
        #expect(batch.title(of: "/d/b") == "B")
        #expect(batch.title(of: "/d/c") == nil)
    }
}
