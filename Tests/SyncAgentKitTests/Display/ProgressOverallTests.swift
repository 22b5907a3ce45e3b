import Testing
@testable import SyncAgentKit

struct ProgressOverallTests {
    /// A batch of four: one downloaded (10 MB), two running (5 of 10 MB at 1 MB/s each), one queued.
    private func batch() -> ProgressBatch {
        var batch = ProgressBatch()
        batch.plan(fileCount: 4)
        batch.start(path: "/d/0", title: "File 0", receivedBytes: 0, expectedBytes: 10_000_000, at: .zero)
        batch.finish(path: "/d/0", outcome: .downloaded(bytes: 10_000_000), at: .seconds(1))
        for path in ["/d/1", "/d/2"] {
            batch.start(path: path, title: path, receivedBytes: 0, expectedBytes: 10_000_000, at: .seconds(1))
            batch.update(path: path, receivedBytes: 5_000_000, expectedBytes: 10_000_000, at: .seconds(6))
        }
        return batch
    }

    @Test func countsFilesBytesAndSpeedOfTheWholeBatch() {
        let overall = batch().overall()
        #expect(overall.filesDone == 1)
        #expect(overall.filesTotal == 4)
        #expect(overall.bytesReceived == 20_000_000)
        #expect(overall.bytesTotal == nil, "a file has not started: the total is not known")
        #expect(overall.bytesPerSecond == 2_000_000)
        // 10 MB left of the running two, and the queued one guessed at the average, 10 MB.
        #expect(overall.remainingTime == .seconds(10))
    }

    @Test func knowsTheTotalOnceEveryFileHasStarted() {
        var batch = batch()
        batch.start(path: "/d/3", title: "File 3", receivedBytes: 0, expectedBytes: 4_000_000, at: .seconds(6))
        #expect(batch.overall().bytesTotal == 34_000_000)
    }

    @Test func noGuessWhileARunningFileHasNoSize() {
        var batch = batch()
        batch.start(path: "/d/3", title: "File 3", receivedBytes: 0, expectedBytes: nil, at: .seconds(6))
        #expect(batch.overall().remainingTime == nil)
        #expect(batch.overall().bytesTotal == nil)
    }

    @Test func theLineShowsWhatFitsAndDropsTheETAFirst() {
        let overall = ProgressOverall(
            filesDone: 3, filesTotal: 10, bytesReceived: 20_300_000, bytesTotal: 48_200_000, bytesPerSecond: 3_100_000, remainingTime: .seconds(9)
        )
        #expect(overall.line(width: 80) == "42%  3 of 10 files  20.3 MB of 48.2 MB  3.1 MB/s  ETA 9 s")
        #expect(overall.line(width: 50) == "42%  3 of 10 files  20.3 MB of 48.2 MB  3.1 MB/s")
        #expect(overall.line(width: 35) == "3 of 10 files  20.3 MB of 48.2 MB")
        #expect(overall.line(width: 30) == "3 of 10 files")
        #expect(ProgressText.columns(of: overall.line(width: 10)) <= 10)
        #expect(overall.line(width: 80, style: TerminalStyle(colors: true)).hasPrefix("\u{1B}[1m42%"))
    }

    @Test func unknownTimeUsesTheLocaleSymbol() {
        let overall = ProgressOverall(filesDone: 0, filesTotal: 2, bytesReceived: 0)
        #expect(overall.line(width: 80) == "0 of 2 files  0 bytes  ETA —")
        #expect(overall.line(width: 80, style: TerminalStyle(symbols: .ascii)) == "0 of 2 files  0 bytes  ETA -")
    }

    /// Files planned later count too.
    @Test func filesPlannedLaterAddToTheTotal() {
        var batch = batch()
        batch.plan(fileCount: 2)
        #expect(batch.overall().filesTotal == 6)
    }
}
