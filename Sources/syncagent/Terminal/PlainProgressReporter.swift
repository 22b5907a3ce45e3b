import SyncAgentKit
import Synchronization

/// Shows a batch where there is no terminal (a pipe, a file, journald): one plain line
/// per event, no ANSI, no progress lines.
///
/// ```
/// started  iOS Programming Guide (28.6 MB)
/// done     iOS Programming Guide  28.6 MB in 3.2 s
/// unchanged Networking Overview
/// retrying Core Data Guide in 2 s: the server answered 503 Service Unavailable
/// failed   Old Guide: the server sent a web page instead of the file
/// 3 files: 1 downloaded (28.6 MB), 1 unchanged, 1 failed
/// ```
final class PlainProgressReporter: ProgressReporter {
    private let output: FileDescriptorOutput
    private let clock = ElapsedClock()
    private let state = Mutex(State())

    /// What the reporter remembers: start times for "in 3.2 s", titles for retries, counts
    /// for the summary.
    private struct State: Sendable {
        var batch = ProgressBatch()
        var isClosed = false
    }

    /// A reporter writing lines to `output`.
    init(output: FileDescriptorOutput) {
        self.output = output
    }

    func transferStarted(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?) {
        writeLine { state, now in
            state.batch.start(path: path, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: now)
            return ProgressLines.plainStarted(title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes)
        }
    }

    /// Writes nothing: a line per progress report would flood a log for no reader's benefit.
    func transferProgressed(path: String, receivedBytes: Int64, expectedBytes: Int64?) {}

    func transferWillRetry(path: String, after delay: Duration, because failure: TransferFailure) {
        writeLine { state, now in
            state.batch.scheduleRetry(path: path, after: delay, reason: failure.message, at: now)
            return ProgressLines.plainRetrying(title: state.batch.title(of: path) ?? path, after: delay, reason: failure.message)
        }
    }

    func transferFinished(_ result: FileResult) {
        writeLine { state, now in
            let elapsed = state.batch.finish(result, at: now)
            return ProgressLines.plainFinished(title: result.title, outcome: result.outcome, elapsed: elapsed)
        }
    }

    /// Writes the summary line.
    func finish() {
        writeLine { state, _ in
            state.isClosed = true
            return state.batch.tally.summary(unfinished: state.batch.activeCount)
        }
    }

    /// Stops writing; there is no terminal state to give back.
    func restore() {
        state.withLock { $0.isClosed = true }
    }

    /// Updates the state and writes the line `make` returns, under the lock so lines from
    /// different threads never interleave.
    private func writeLine(_ make: (inout State, Duration) -> String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            output.write(make(&state, clock.now()) + "\n")
        }
    }
}
