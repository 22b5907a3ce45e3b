import Testing
@testable import SyncAgentKit

struct ProgressLinesTests {
    private let reset = TransferFailure(.network, "the connection was reset")

    @Test func finishedLinesForTheTerminal() {
        #expect(ProgressLines.finished(title: "Guide", outcome: .downloaded(bytes: 28_600_000)) == "✓ Guide  28.6 MB")
        #expect(ProgressLines.finished(title: "Guide", outcome: .unchanged) == "= Guide  unchanged")
        #expect(ProgressLines.finished(title: "Guide", outcome: .failed(reset)) == "✗ Guide  the connection was reset")
    }

    @Test func plainStartedLines() {
        #expect(ProgressLines.plainStarted(title: "Guide", receivedBytes: 0, expectedBytes: 28_600_000) == "started  Guide (28.6 MB)")
        #expect(ProgressLines.plainStarted(title: "Guide", receivedBytes: 0, expectedBytes: nil) == "started  Guide")
        #expect(
            ProgressLines.plainStarted(title: "Guide", receivedBytes: 12_300_000, expectedBytes: 28_600_000)
                == "started  Guide (28.6 MB, resuming at 12.3 MB)")
        #expect(
            ProgressLines.plainStarted(title: "Guide", receivedBytes: 12_300_000, expectedBytes: nil)
                == "started  Guide (resuming at 12.3 MB)")
    }

    @Test func plainFinishedLines() {
        #expect(
            ProgressLines.plainFinished(title: "Guide", outcome: .downloaded(bytes: 28_600_000), elapsed: .milliseconds(3_200))
                == "done     Guide  28.6 MB in 3.2 s")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .downloaded(bytes: 1_000), elapsed: nil) == "done     Guide  1.0 KB")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .unchanged, elapsed: .seconds(1)) == "unchanged Guide")
        #expect(
            ProgressLines.plainFinished(title: "Guide", outcome: .failed(reset), elapsed: .seconds(1))
                == "failed   Guide: the connection was reset")
    }

    @Test func plainRetryingLine() {
        #expect(
            ProgressLines.plainRetrying(title: "Guide", after: .seconds(2), reason: "the server answered 503")
                == "retrying Guide in 2 s: the server answered 503")
    }

    @Test func everyLineIsOneLineWithoutControlCharacters() {
        let title = "Evil\u{1B}[2J\ntitle"
        let hostile = TransferFailure(.httpStatus, "bad\r\n\u{1B}[31mred")
        let lines = [
            ProgressLines.finished(title: title, outcome: .failed(hostile)),
            ProgressLines.finished(title: title, outcome: .unchanged),
            ProgressLines.plainStarted(title: title, receivedBytes: 0, expectedBytes: nil),
            ProgressLines.plainFinished(title: title, outcome: .failed(hostile), elapsed: nil),
            ProgressLines.plainRetrying(title: title, after: .seconds(1), reason: hostile.message),
        ]
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(lines[0] == "✗ Evil\u{FFFD}[2J title  bad  \u{FFFD}[31mred")
    }
}
