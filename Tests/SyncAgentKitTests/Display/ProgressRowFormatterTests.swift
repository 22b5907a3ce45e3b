import Testing
@testable import SyncAgentKit

struct ProgressRowFormatterTests {
    /// "iOS Programming Guide" at 13.3 MB of 28.6 MB, 3.1 MB/s: five seconds to go.
    private func guide(title: String = "iOS Programming Guide", expected: Int64? = 28_600_000) -> ProgressRow {
        var row = ProgressRow(path: "/d/guide.pdf", title: title, receivedBytes: 10_200_000, expectedBytes: expected, startedAt: .zero)
        row.record(receivedBytes: 13_300_000, expectedBytes: expected, at: .seconds(1))
        return row
    }

    private func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
    private func bar(_ filled: Int, of inside: Int) -> String {
        "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: inside - filled) + "]"
    }

    @Test func showsEverythingAt120Columns() {
        let line = ProgressRowFormatter(width: 120).format(guide(), at: .seconds(1))
        #expect(line == "iOS Programming Guide" + spaces(22) + "  " + bar(12, of: 27) + "  13.3 MB / 28.6 MB    3.1 MB/s  ETA 5 s")
        #expect(ProgressText.columns(of: line) <= 120)
    }

    @Test func shortensTheTitleAt80Columns() {
        let line = ProgressRowFormatter(width: 80).format(guide(), at: .seconds(1))
        #expect(line == "iOS Programming Gu…  " + bar(5, of: 11) + "  13.3 MB / 28.6 MB    3.1 MB/s  ETA 5 s")
    }

    @Test func dropsSpeedAndETAAt40Columns() {
        let line = ProgressRowFormatter(width: 40).format(guide(), at: .seconds(1))
        #expect(line == "iOS Progra…  " + bar(2, of: 6) + "  13.3 MB / 28.6 MB")
        #expect(ProgressText.columns(of: line) == 40)
    }

    @Test func dropsOnlyTheETAWhenThatIsEnough() {
        let line = ProgressRowFormatter(width: 60).format(guide(), at: .seconds(1))
        #expect(line.hasSuffix("13.3 MB / 28.6 MB    3.1 MB/s"))
        #expect(!line.contains("ETA"))
        #expect(ProgressText.columns(of: line) <= 60)
    }

    @Test func keepsTitleAndBytesWhenNoBarFits() {
        #expect(ProgressRowFormatter(width: 30).format(guide(), at: .seconds(1)) == "iOS Progra…  13.3 MB / 28.6 MB")
        #expect(ProgressRowFormatter(width: 20).format(guide(), at: .seconds(1)) == "iOS Programming Gui…")
    }

    @Test(arguments: [40, 80, 120])
    func rowsLineUpWhateverTheTitle(width: Int) {
        let formatter = ProgressRowFormatter(width: width)
        let long = formatter.format(guide(), at: .seconds(1))
        let short = formatter.format(guide(title: "A"), at: .seconds(1))
        let wide = formatter.format(guide(title: "日本語のプログラミングガイド"), at: .seconds(1))
        let barColumn = { (line: String) in ProgressText.columns(of: String(line.prefix { $0 != "[" })) }
        #expect(barColumn(long) == barColumn(short))
        #expect(barColumn(long) == barColumn(wide))
        #expect(ProgressText.columns(of: wide) == ProgressText.columns(of: long))
    }

    @Test func unknownSizeShowsBytesAMovingMarkerAndNoETA() {
        let formatter = ProgressRowFormatter(width: 80)
        let row = guide(expected: nil)
        #expect(formatter.format(row, at: .seconds(1), frame: 0) == "iOS Programming Gu…  [<=>        ]  " + spaces(10) + "13.3 MB    3.1 MB/s  ETA —")
        #expect(formatter.format(row, at: .seconds(1), frame: 3).contains("[   <=>     ]"))
        #expect(formatter.format(row, at: .seconds(1), frame: 8).contains("[        <=>]"))
        #expect(formatter.format(row, at: .seconds(1), frame: 10).contains("[      <=>  ]"))
        #expect(formatter.format(row, at: .seconds(1), frame: 16).contains("[<=>        ]"))
    }

    @Test func aFreshRowHasNoSpeedYet() {
        let row = ProgressRow(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 1_000, startedAt: .zero)
        let line = ProgressRowFormatter(width: 80).format(row, at: .zero)
        #expect(line == "A" + spaces(18) + "  " + bar(0, of: 11) + "   0 bytes / 1.0 KB  " + spaces(10) + "  ETA —")
    }

    @Test func aWaitingRowSaysWhenAndWhy() {
        var row = guide()
        row.waitForRetry(at: .seconds(3), reason: "the connection was reset")
        let line = ProgressRowFormatter(width: 80).format(row, at: .seconds(1))
        #expect(line == "iOS Programming Gu…  retrying in 2 s: the connection was reset")
        let narrow = ProgressRowFormatter(width: 40).format(row, at: .seconds(1))
        #expect(narrow == "iOS Progra…  retrying in 2 s: the conne…")
        #expect(ProgressText.columns(of: narrow) == 40)
    }

    @Test func controlCharactersInTitlesNeverReachTheTerminal() {
        var row = guide(title: "Evil\u{1B}[2J\u{1B}[H\rTitle")
        let line = ProgressRowFormatter(width: 80).format(row, at: .seconds(1))
        #expect(line.hasPrefix("Evil\u{FFFD}[2J\u{FFFD}[H Title"))
        row.waitForRetry(at: .seconds(2), reason: "bad\n\u{1B}[31m")
        let waiting = ProgressRowFormatter(width: 80).format(row, at: .seconds(1))
        for text in [line, waiting] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }

    @Test func asciiSymbolsWhereTheLocaleIsNotUTF8() {
        let formatter = ProgressRowFormatter(width: 80, style: TerminalStyle(symbols: .ascii))
        let line = formatter.format(guide(), at: .seconds(1))
        #expect(line.hasPrefix("iOS Programming ...  "))
        #expect(line.unicodeScalars.allSatisfy { $0.isASCII })
        var stalled = ProgressRow(path: "/d/a", title: "A", receivedBytes: 0, expectedBytes: 100, startedAt: .zero)
        stalled.record(receivedBytes: 0, expectedBytes: 100, at: .seconds(1))
        #expect(formatter.format(stalled, at: .seconds(1)).hasSuffix("ETA -"))
    }

    @Test func colourGoesAroundTheBarAndTakesNoColumns() {
        let plain = ProgressRowFormatter(width: 80).format(guide(), at: .seconds(1))
        let coloured = ProgressRowFormatter(width: 80, style: TerminalStyle(colors: true)).format(guide(), at: .seconds(1))
        #expect(coloured == plain.replacingOccurrences(of: bar(5, of: 11), with: "\u{1B}[36m" + bar(5, of: 11) + "\u{1B}[0m"))
    }
}
