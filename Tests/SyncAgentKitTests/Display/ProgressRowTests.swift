import Testing
@testable import SyncAgentKit

struct ProgressRowTests {
    /// A row that resumed at `from` bytes at time zero and reached `to` one second later.
    private func row(from: Int64, to: Int64, of expected: Int64?) -> ProgressRow {
        var row = ProgressRow(path: "/d/guide.pdf", title: "Guide", receivedBytes: from, expectedBytes: expected, startedAt: .zero)
        row.record(receivedBytes: to, expectedBytes: expected, at: .seconds(1))
        return row
    }

    @Test func estimatesTheTimeLeftFromTheSpeed() throws {
        let row = row(from: 10_200_000, to: 13_300_000, of: 28_600_000)
        #expect(row.bytesPerSecond == 3_100_000)
        let remaining = try #require(row.remainingTime)
        #expect(remaining > .milliseconds(4_930) && remaining < .milliseconds(4_940))
        #expect(formatRemainingTime(remaining) == "5 s")
    }

    @Test func hasNoTimeLeftWithoutASizeOrASpeed() {
        #expect(row(from: 0, to: 1_000, of: nil).remainingTime == nil)
        #expect(row(from: 1_000, to: 1_000, of: 5_000).remainingTime == nil)
        let fresh = ProgressRow(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 5_000, startedAt: .zero)
        #expect(fresh.remainingTime == nil)
    }

    @Test func isDoneWhenAllBytesArrived() {
        let done = row(from: 0, to: 5_000, of: 5_000)
        #expect(done.remainingTime == .zero)
        #expect(done.fractionCompleted == 1)
    }

    @Test func reportsTheFractionCompleted() {
        #expect(row(from: 0, to: 2_500, of: 10_000).fractionCompleted == 0.25)
        #expect(row(from: 0, to: 0, of: 0).fractionCompleted == 1)
        #expect(row(from: 0, to: 20_000, of: 10_000).fractionCompleted == 1)
        #expect(row(from: 0, to: 2_500, of: nil).fractionCompleted == nil)
    }

    @Test func learnsTheSizeWhenItArrivesLate() {
        var row = row(from: 0, to: 1_000, of: nil)
        row.record(receivedBytes: 2_000, expectedBytes: 8_000, at: .seconds(2))
        #expect(row.expectedBytes == 8_000)
        row.record(receivedBytes: 3_000, expectedBytes: nil, at: .seconds(3))
        #expect(row.expectedBytes == 8_000)
    }

    @Test func progressEndsTheWaitForARetry() {
        var row = row(from: 0, to: 1_000, of: 8_000)
        row.waitForRetry(at: .seconds(5), reason: "connection reset")
        #expect(row.retry == ProgressRow.Retry(at: .seconds(5), reason: "connection reset"))
        row.record(receivedBytes: 1_000, expectedBytes: 8_000, at: .seconds(6))
        #expect(row.retry == nil)
    }

    @Test func aRestartForgetsTheOldSpeed() {
        var row = row(from: 0, to: 1_000_000, of: 8_000_000)
        row.restart(receivedBytes: 500_000, expectedBytes: 9_000_000, at: .seconds(10))
        #expect(row.bytesPerSecond == nil)
        #expect(row.receivedBytes == 500_000)
        #expect(row.expectedBytes == 9_000_000)
        #expect(row.startedAt == .zero)
    }
}
