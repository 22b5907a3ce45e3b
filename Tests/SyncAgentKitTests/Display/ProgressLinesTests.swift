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

    /// A writer gathering lines into one buffer gets each line as ``ProgressLines/plainFinished(title:outcome:elapsed:style:url:verbose:)``
    /// and ``ProgressLines/plainStarted(title:receivedBytes:expectedBytes:style:url:verbose:)``
    /// make it, colours and URLs included, after what the buffer held.
    @Test func appendedLinesAreTheLinesMadeAlone() {
        let url = "https://example.org/guides/a.pdf"
        let outcomes: [TransferOutcome] = [.downloaded(bytes: 1_000), .unchanged, .failed(reset)]
        for style in [TerminalStyle(), TerminalStyle(colors: true)] {
            for verbose in [false, true] {
                for outcome in outcomes {
                    var buffer = PlainLine()
                    buffer.append("earlier line\n")
                    ProgressLines.appendPlainFinished(
                        to: &buffer, title: "Guide", outcome: outcome, elapsed: .seconds(1), style: style, url: url, verbose: verbose)
                    let alone = ProgressLines.plainFinished(title: "Guide", outcome: outcome, elapsed: .seconds(1), style: style, url: url, verbose: verbose)
                    #expect(buffer.text == "earlier line\n" + alone)
                }
                var buffer = PlainLine()
                buffer.append("earlier line\n")
                ProgressLines.appendPlainStarted(
                    to: &buffer, title: "Guide", receivedBytes: 10, expectedBytes: 1_000, style: style, url: url, verbose: verbose)
                let alone = ProgressLines.plainStarted(title: "Guide", receivedBytes: 10, expectedBytes: 1_000, style: style, url: url, verbose: verbose)
                #expect(buffer.text == "earlier line\n" + alone)
            }
        }
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .unchanged, elapsed: nil, style: TerminalStyle(colors: true))
            == "\u{1B}[2munchanged\u{1B}[0m Guide")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .downloaded(bytes: 1_000), elapsed: nil, style: TerminalStyle(colors: true))
            == "\u{1B}[32mdone    \u{1B}[0m Guide  1.0 KB")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .failed(reset), elapsed: nil, style: TerminalStyle(colors: true), url: url)
            == "\u{1B}[31mfailed  \u{1B}[0m Guide: the connection was reset (example.org)")
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

    @Test func asciiMarksWhereTheLocaleIsNotUTF8() {
        let ascii = TerminalStyle(symbols: .ascii)
        #expect(ProgressLines.finished(title: "Guide", outcome: .downloaded(bytes: 28_600_000), style: ascii) == "+ Guide  28.6 MB")
        #expect(ProgressLines.finished(title: "Guide", outcome: .unchanged, style: ascii) == "= Guide  unchanged")
        #expect(ProgressLines.finished(title: "Guide", outcome: .failed(reset), style: ascii) == "! Guide  the connection was reset")
    }

    @Test func colouredMarksAndVerbs() {
        let colours = TerminalStyle(colors: true)
        #expect(ProgressLines.finished(title: "Guide", outcome: .downloaded(bytes: 1_000), style: colours) == "\u{1B}[32m✓\u{1B}[0m Guide  1.0 KB")
        #expect(
            ProgressLines.plainFinished(title: "Guide", outcome: .failed(reset), elapsed: nil, style: colours)
                == "\u{1B}[31mfailed  \u{1B}[0m Guide: the connection was reset"
        )
    }

    @Test func aFailureNamesItsHostUnlessTheReasonDoes() {
        let url = "http://files.example.org:8080/guides/a.pdf?x=1"
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .failed(reset), elapsed: nil, url: url)
            == "failed   Guide: the connection was reset (files.example.org:8080)")
        let named = TransferFailure(.network, "could not resolve host files.example.org")
        #expect(ProgressLines.finished(title: "Guide", outcome: .failed(named), url: "https://files.example.org/a.pdf")
            == "✗ Guide  could not resolve host files.example.org")
    }

    @Test func aFailureOfThisMachinesDiskNamesNoServer() {
        let full = TransferFailure(.disk, "cannot write in the folder /d: read-only file system")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .failed(full), elapsed: nil, url: "https://example.org/a.pdf")
            == "failed   Guide: cannot write in the folder /d: read-only file system")
    }

    @Test func verboseLinesShowTheWholeURL() {
        let url = "https://example.org/guides/a.pdf"
        #expect(ProgressLines.finished(title: "Guide", outcome: .failed(reset), url: url, verbose: true)
            == "✗ Guide  the connection was reset (https://example.org/guides/a.pdf)")
        #expect(ProgressLines.plainFinished(title: "Guide", outcome: .unchanged, elapsed: nil, url: url, verbose: true)
            == "unchanged Guide  https://example.org/guides/a.pdf")
        #expect(ProgressLines.plainStarted(title: "Guide", receivedBytes: 0, expectedBytes: 1_000, url: url, verbose: true)
            == "started  Guide (1.0 KB) from https://example.org/guides/a.pdf")
    }
}
