import Testing
@testable import SyncAgentKit

struct ProgressBoardLayoutTests {
    private func rows(_ count: Int) -> [ProgressRow] {
        (0..<count).map {
            ProgressRow(path: "/d/\($0)", title: "File \($0)", receivedBytes: 0, expectedBytes: 100, startedAt: .zero)
        }
    }

    @Test func showsEveryRowThatFits() {
        let layout = ProgressBoardLayout(columns: 81, lines: 24)
        let lines = layout.boardLines(rows: rows(5), activeCount: 5, at: .zero, frame: 0)
        #expect(lines.count == 5)
        #expect(lines[0] == ProgressRowFormatter(width: 80).format(rows(1)[0], at: .zero))
    }

    @Test func summarisesTheRowsThatDoNotFit() {
        let layout = ProgressBoardLayout(columns: 80, lines: 24)
        #expect(layout.maximumLines == 22)
        #expect(layout.visibleRowCount(activeCount: 22) == 22)
        #expect(layout.visibleRowCount(activeCount: 10_000) == 21)
        let lines = layout.boardLines(rows: rows(21), activeCount: 10_000, at: .zero, frame: 0)
        #expect(lines.count == 22)
        #expect(lines.last == "+9979 more")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("File ") })
    }

    @Test func neverTakesMoreLinesThanATinyTerminalHas() {
        let layout = ProgressBoardLayout(columns: 80, lines: 3)
        #expect(layout.maximumLines == 1)
        #expect(layout.boardLines(rows: rows(1), activeCount: 1, at: .zero, frame: 0).count == 1)
        #expect(layout.boardLines(rows: rows(5), activeCount: 5, at: .zero, frame: 0) == ["+5 more"])
    }

    @Test func leavesTheLastColumnFree() {
        for columns in [40, 80, 120] {
            let layout = ProgressBoardLayout(columns: columns, lines: 24)
            let long = ProgressRow(path: "/d/x", title: String(repeating: "x", count: 200), receivedBytes: 0, expectedBytes: 100, startedAt: .zero)
            let lines = layout.boardLines(rows: [long], activeCount: 1, at: .zero, frame: 0)
            #expect(ProgressText.columns(of: lines[0]) <= columns - 1)
        }
    }

    @Test func drawsNothingForAnEmptyBatch() {
        #expect(ProgressBoardLayout(columns: 80, lines: 24).boardLines(rows: [], activeCount: 0, at: .zero, frame: 0).isEmpty)
    }

    @Test func theOverallLineComesLastAndTakesARowsPlace() {
        let layout = ProgressBoardLayout(columns: 80, lines: 5, showsOverall: true)
        #expect(layout.visibleRowCount(activeCount: 2) == 2)
        #expect(layout.visibleRowCount(activeCount: 3) == 1)
        let rows = (0..<3).map { ProgressRow(path: "/d/\($0)", title: "F\($0)", receivedBytes: 0, expectedBytes: 10, startedAt: .zero) }
        let overall = ProgressOverall(filesDone: 0, filesTotal: 3, bytesReceived: 0)
        let lines = layout.boardLines(rows: Array(rows.prefix(1)), activeCount: 3, at: .zero, frame: 0, overall: overall)
        #expect(lines.count == 3)
        #expect(lines[1] == "+2 more")
        #expect(lines[2] == "0 of 3 files  0 bytes  ETA —")
    }

    @Test func aShrunkWindowRewrapsWideLinesOntoMoreRows() {
        #expect(ProgressBoardLayout.screenRows(ofLineWidths: [99, 99, 40], columns: 100) == 3)
        #expect(ProgressBoardLayout.screenRows(ofLineWidths: [99, 99, 40], columns: 50) == 5)
        #expect(ProgressBoardLayout.screenRows(ofLineWidths: [0, 120], columns: 40) == 4)
        #expect(ProgressBoardLayout.screenRows(ofLineWidths: [], columns: 40) == 0)
    }
}
