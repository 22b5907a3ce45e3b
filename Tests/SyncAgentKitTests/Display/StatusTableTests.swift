import Foundation
import Testing
@testable import SyncAgentKit

struct StatusTableTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func file(_ title: String, _ state: FileStatus.State, _ change: (inout FileStatus) -> Void = { _ in }) -> FileStatus {
        var status = FileStatus(title: title, path: "/d/\(title)", state: state)
        change(&status)
        return status
    }

    @Test func rowsForEachKindOfState() {
        let lines = StatusTable(now: now).lines(for: [
            file("AV Foundation", .downloading) {
                $0.bytesReceived = 6_000_000
                $0.bytesExpected = 12_000_000
                $0.bytesPerSecond = 2_000_000
            },
            file("Guide", .upToDate) {
                $0.lastResult = "downloaded"
                $0.lastResultDate = now.addingTimeInterval(-300)
                $0.bytesExpected = 700_000
                $0.nextCheck = now.addingTimeInterval(3600)
            },
            file("Gone", .failed) {
                $0.lastResult = "failed"
                $0.lastMessage = "the server answered 404 Not Found"
                $0.lastResultDate = now.addingTimeInterval(-7200)
            },
            file("Night", .waitingForWindow) { $0.nextCheck = now.addingTimeInterval(5400) },
            file("Held", .paused) { $0.bytesReceived = 1_500_000 },
            file("Later", .waitingToRetry) {
                $0.lastMessage = "the server answered 503 Service Unavailable"
                $0.lastResultDate = now.addingTimeInterval(-10)
                $0.nextCheck = now.addingTimeInterval(40)
            },
        ])
        #expect(lines == [
            "AV Foundation  downloading       [##########----------]  6.0 MB of 12.0 MB  2.0 MB/s  ETA 3 s",
            "Guide          up to date        downloaded 5 min ago, 700 KB; next check in 1 h",
            "Gone           failed            the server answered 404 Not Found (2 h ago)",
            "Night          outside window    window opens in 1 h 30 min",
            "Held           paused            1.5 MB",
            "Later          waiting to retry  the server answered 503 Service Unavailable (just now); retry in 40 s",
        ])
    }

    @Test func controlCharactersInTitlesNeverReachTheTerminal() {
        let line = StatusTable(now: now).lines(for: [file("Bad\u{1B}[2JTitle", .queued)])[0]
        #expect(!line.contains("\u{1B}"))
    }

    @Test func statesAreColouredAfterTheyAreAligned() {
        let lines = StatusTable(now: now, style: TerminalStyle(colors: true)).lines(for: [
            file("Gone", .failed) { $0.lastMessage = "404" },
            file("Fine", .upToDate),
        ])
        #expect(lines == [
            "Gone  \u{1B}[31mfailed          \u{1B}[0m  404",
            "Fine  \u{1B}[32mup to date\u{1B}[0m",
        ])
    }

    @Test func asciiEllipsisWhereTheLocaleIsNotUTF8() {
        let lines = StatusTable(now: now, width: 40, style: TerminalStyle(symbols: .ascii)).lines(for: [
            file("A rather long title for a guide", .failed) { $0.lastMessage = "the server answered 404 Not Found" },
        ])
        #expect(lines == ["A rat...  failed            the serve..."])
    }

    @Test(arguments: [40, 60, 80, 100])
    func rowsFitTheWidth(width: Int) {
        let lines = StatusTable(now: now, width: width).lines(for: [
            file("A very long title for the AV Foundation Programming Guide", .downloading) {
                $0.bytesReceived = 6_000_000
                $0.bytesExpected = 12_000_000
                $0.bytesPerSecond = 2_000_000
            },
            file("Gone", .failed) { $0.lastMessage = "the server answered 404 Not Found, and it said so at length" },
        ])
        for line in lines {
            #expect(ProgressText.columns(of: line) <= width, "\(line)")
        }
        #expect(lines[0].contains("6.0 MB of 12.0 MB") == (width >= 60), "\(lines[0])")
    }

    @Test func theBarNarrowsBeforeItGoes() {
        let moving = file("Guide", .downloading) {
            $0.bytesReceived = 6_000_000
            $0.bytesExpected = 12_000_000
            $0.bytesPerSecond = 2_000_000
        }
        #expect(StatusTable(now: now, width: 80).lines(for: [moving]) == ["Guide  downloading       [#######--------]  6.0 MB of 12.0 MB  2.0 MB/s  ETA 3 s"])
        #expect(StatusTable(now: now, width: 70).lines(for: [moving]) == ["Guide  downloading       6.0 MB of 12.0 MB  2.0 MB/s  ETA 3 s"])
        #expect(StatusTable(now: now, width: 60).lines(for: [moving]) == ["Guide  downloading       6.0 MB of 12.0 MB  2.0 MB/s  ETA 3…"])
    }

    @Test func aFeedPausedShowsItsLastCheckRatherThanNoBytes() {
        let feed = file("ATP", .paused) {
            $0.lastResult = "checked"
            $0.lastResultDate = now.addingTimeInterval(-120)
        }
        #expect(StatusTable(now: now).lines(for: [feed, file("ATP/612", .paused)]) == ["ATP      paused            checked 2 min ago", "ATP/612  paused"])
    }

    @Test func aPausedFileShowsItsSizeOfTheWhole() {
        let paused = file("Held", .paused) {
            $0.bytesReceived = 9_200_000
            $0.bytesExpected = 48_000_000
        }
        #expect(StatusTable(now: now).lines(for: [paused]) == ["Held  paused            [###-----------------]  9.2 MB of 48.0 MB"])
    }
}
