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
            "AV Foundation  downloading       [##########----------]  6.0 MB / 12.0 MB  2.0 MB/s  ETA 3 s",
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
}
