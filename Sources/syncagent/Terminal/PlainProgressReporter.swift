import Dispatch
import SyncAgentKit
import Synchronization

/// Shows a batch where there is no terminal (a pipe, a file, journald): one plain line
/// per event — a download starting (once its body begins), a file done, unchanged, retried or
/// failed — no ANSI, no progress lines.
///
/// Lines are written at most ten times a second, by ``ProgressRedrawThrottle`` as the board
/// redraws: a batch of 10,000 small files would otherwise cost 20,000 `write` calls. A line
/// that comes too soon after a write goes out at the end of the interval, with any others
/// that came meanwhile, so none waits longer than that.
///
/// ```
/// started  iOS Programming Guide (28.6 MB)
/// done     iOS Programming Guide  28.6 MB in 3.2 s
/// unchanged Networking Overview
/// retrying Core Data Guide in 2 s: the server answered 503 Service Unavailable
/// failed   Old Guide: the server sent a web page instead of the file (example.org)
/// 3 files in ~/Downloads/syncagent: 1 downloaded (28.6 MB in 3.2 s, 8.9 MB/s), 1 unchanged, 1 failed
/// ```
///
/// A failed line names the file's host; with `--verbose`, every line gives the whole URL.
final class PlainProgressReporter: ProgressReporter {
    private let output: FileDescriptorOutput
    private let style: TerminalStyle
    private let verbose: Bool
    private let folder: String?
    private let clock = ElapsedClock()
    private let state = Mutex(State())
    private let wakeUps = DispatchQueue(label: "syncagent.plain-progress")

    /// What the reporter remembers: start times for "in 3.2 s", titles for retries, counts
    /// for the summary.
    private struct State: Sendable {
        var batch = PlainBatch()
        var throttle = ProgressRedrawThrottle()
        /// Lines not written yet.
        var pending = PlainLine()
        var isClosed = false
    }

    /// A reporter writing lines to `output` in `style` (colour only when asked for with
    /// `--color always`: output that is not a terminal is not coloured by default);
    /// `verbose` adds URLs, and `folder` (as shown, `~` for home) goes into the summary.
    init(output: FileDescriptorOutput, style: TerminalStyle, verbose: Bool = false, folder: String? = nil) {
        self.output = output
        self.style = style
        self.verbose = verbose
        self.folder = folder
    }

    /// Writes nothing yet: the "started" line waits for the body, which tells the size, and
    /// never comes for a re-check that finds the file unchanged.
    func transferStarted(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?) {
        state.withLock { state in
            state.batch.start(path: path, title: title, at: clock.now())
        }
    }

    /// Writes the "started" line, with the size the response announced.
    func transferReceiving(path: String, title: String, url: String, receivedBytes: Int64, expectedBytes: Int64?) {
        writeLine { state, _ in
            ProgressLines.appendPlainStarted(
                to: &state.pending, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, style: style, url: url,
                verbose: verbose
            )
        }
    }

    /// Writes nothing: a line per progress report would flood a log for no reader's benefit.
    func transferProgressed(path: String, receivedBytes: Int64, expectedBytes: Int64?) {}

    func transferWillRetry(path: String, after delay: Duration, because failure: TransferFailure) {
        writeLine { state, _ in
            state.pending.append(ProgressLines.plainRetrying(title: state.batch.title(of: path) ?? path, after: delay, reason: failure.message, style: style))
        }
    }

    func transferFinished(path: String, title: String, url: String, outcome: TransferOutcome) {
        writeLine { state, now in
            let elapsed = state.batch.finish(path: path, outcome: outcome, at: now)
            ProgressLines.appendPlainFinished(
                to: &state.pending, title: title, outcome: outcome, elapsed: elapsed, style: style, url: url, verbose: verbose
            )
        }
    }

    /// Writes the lines not yet written and the summary line.
    func finish() {
        close { state in
            state.batch.tally.summary(unfinished: state.batch.activeCount, folder: folder, elapsed: clock.now()) + "\n"
        }
    }

    /// Writes the lines not yet written, and stops; there is no terminal state to give back.
    func restore() {
        close { _ in "" }
    }

    private func close(withLast last: (State) -> String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            let tail = last(state)
            state.pending.append(tail)
            output.write(state.pending.bytes)
        }
    }

    /// Updates the state and adds the line `append` adds to ``State/pending``, under the lock
    /// so lines from different threads never interleave; writes if the throttle allows.
    private func writeLine(_ append: (inout State, Duration) -> Void) {
        state.withLock { state in
            guard !state.isClosed else { return }
            let now = clock.now()
            append(&state, now)
            state.pending.append(byte: UInt8(ascii: "\n"))
            follow(state.throttle.changed(at: now), state: &state, now: now)
        }
    }

    private func follow(_ decision: ProgressRedrawThrottle.Decision, state: inout State, now: Duration) {
        switch decision {
        case .redrawNow:
            output.write(state.pending.bytes)
            // Kept for the next lines: a batch of 10,000 files writes them in some thirty goes.
            state.pending.removeAll(keepingCapacity: true)
            state.throttle.didRedraw(at: now)
        case .redrawLater(let due):
            wakeUps.asyncAfter(due - now) { [self] in
                self.state.withLock { state in
                    guard !state.isClosed else { return }
                    let now = clock.now()
                    follow(state.throttle.wakeUp(at: now), state: &state, now: now)
                }
            }
        case .alreadyScheduled:
            break
        }
    }
}
