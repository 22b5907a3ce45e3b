import Testing
@testable import SyncAgentKit

struct ProgressTallyTests {
    private func tally(_ outcomes: [TransferOutcome]) -> ProgressTally {
        var tally = ProgressTally()
        outcomes.forEach { tally.count($0) }
        return tally
    }

    @Test func summarisesAMixedBatch() {
        let failure = TransferFailure(.notFound, "the server answered 404 Not Found")
        let batch = tally([
            .downloaded(bytes: 28_600_000), .downloaded(bytes: 12_000_000), .downloaded(bytes: 7_000_000),
            .downloaded(bytes: 600_000), .unchanged, .failed(failure),
        ])
        #expect(batch.summary() == "6 files: 4 downloaded (48.2 MB), 1 unchanged, 1 failed")
    }

    @Test func leavesOutKindsWithNothingInThem() {
        #expect(tally([.unchanged]).summary() == "1 file: 1 unchanged")
        #expect(tally([.downloaded(bytes: 1_000), .downloaded(bytes: 2_000)]).summary() == "2 files: 2 downloaded (3.0 KB)")
        #expect(tally([]).summary() == "nothing new")
        #expect(tally([]).summary(folder: "~/Podcasts") == "nothing new in ~/Podcasts")
    }

    @Test func countsFilesCutShort() {
        #expect(tally([.downloaded(bytes: 1_000)]).summary(unfinished: 2) == "3 files: 1 downloaded (1.0 KB), 2 not finished")
    }

    @Test func saysWhereTheFilesAreAndHowFastTheyCame() {
        let batch = tally([.downloaded(bytes: 30_000_000), .unchanged])
        #expect(batch.summary(folder: "~/Guides", elapsed: .seconds(3)) == "2 files in ~/Guides: 1 downloaded (30.0 MB in 3.0 s, 10.0 MB/s), 1 unchanged")
        #expect(tally([.unchanged]).summary(folder: "~/Guides", elapsed: .seconds(1)) == "1 file in ~/Guides: 1 unchanged")
    }
}
