import Dispatch
import SyncAgentKit
import Synchronization

/// Shows a batch on a terminal as a live board: one row per running file (title, bar,
/// bytes, speed, ETA), redrawn in place, with finished files scrolling up above it as
/// plain lines ("✓ Title  28.6 MB", "= Title  unchanged", "✗ Title  reason").
///
/// Events only update the model; redraws are throttled to ten a second by
/// ``ProgressRedrawThrottle``, so a flood of progress reports or 10,000 small files cost
/// a dictionary update each. A change that arrives too soon after a redraw is drawn by a
/// wake-up at the end of the interval, so the board never stays behind.
///
/// The cursor is hidden while the board is up and shown again by ``finish()`` or
/// ``restore()``. All state sits behind one lock, because those two may come from a
/// signal handler's queue while the engine's thread reports events.
final class TerminalProgressBoard: ProgressReporter {
    private let output: FileDescriptorOutput
    private let clock = ElapsedClock()
    private let state = Mutex(State())
    private let wakeUps = DispatchQueue(label: "syncagent.progress-board")

    /// What the board knows and what it has drawn.
    private struct State: Sendable {
        var batch = ProgressBatch()
        var throttle = ProgressRedrawThrottle()
        /// Lines of finished files not yet written above the board.
        var pendingLines: [String] = []
        /// How many lines the board took on the last redraw; the cursor sits below them.
        var drawnLineCount = 0
        /// Counts redraws, to move the marker of files of unknown size.
        var frame = 0
        var isCursorHidden = false
        var isClosed = false
    }

    /// A board drawn on `output`, which must be a terminal.
    init(output: FileDescriptorOutput) {
        self.output = output
    }

    func transferStarted(path: String, title: String, receivedBytes: Int64, expectedBytes: Int64?) {
        change { state, now in
            state.batch.start(path: path, title: title, receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: now)
        }
    }

    func transferProgressed(path: String, receivedBytes: Int64, expectedBytes: Int64?) {
        change { state, now in
            state.batch.update(path: path, receivedBytes: receivedBytes, expectedBytes: expectedBytes, at: now)
        }
    }

    func transferWillRetry(path: String, after delay: Duration, because failure: TransferFailure) {
        change { state, now in
            state.batch.scheduleRetry(path: path, after: delay, reason: failure.message, at: now)
        }
    }

    func transferFinished(_ result: FileResult) {
        change { state, now in
            state.batch.finish(result, at: now)
            state.pendingLines.append(ProgressLines.finished(title: result.title, outcome: result.outcome))
        }
    }

    /// Takes the board down, writes the last finished lines and the summary, and shows
    /// the cursor.
    func finish() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            var text = redrawText(&state, at: clock.now(), withBoard: false)
            text += state.batch.tally.summary(unfinished: state.batch.activeCount) + "\n"
            if state.isCursorHidden { text += ANSI.showCursor }
            output.write(text)
        }
    }

    /// Draws the board once more as it stands, so the user sees where things were when
    /// the batch was cut short, and shows the cursor.
    func restore() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            guard state.isCursorHidden || !state.pendingLines.isEmpty else { return }
            var text = redrawText(&state, at: clock.now(), withBoard: true)
            text += ANSI.showCursor
            output.write(text)
        }
    }

    /// Applies an event to the model, then redraws if the throttle allows.
    private func change(_ apply: (inout State, Duration) -> Void) {
        state.withLock { state in
            guard !state.isClosed else { return }
            let now = clock.now()
            apply(&state, now)
            follow(state.throttle.changed(at: now), state: &state, now: now)
        }
    }

    private func follow(_ decision: ProgressRedrawThrottle.Decision, state: inout State, now: Duration) {
        switch decision {
        case .redrawNow:
            output.write(redrawText(&state, at: now, withBoard: true))
            state.throttle.didRedraw(at: now)
        case .redrawLater(let due):
            scheduleWakeUp(after: due - now)
        case .alreadyScheduled:
            break
        }
    }

    private func scheduleWakeUp(after delay: Duration) {
        wakeUps.asyncAfter(delay) { [self] in
            state.withLock { state in
                guard !state.isClosed else { return }
                let now = clock.now()
                follow(state.throttle.wakeUp(at: now), state: &state, now: now)
            }
        }
    }

    /// The text of one redraw: back up over the old board, erase it, write the pending
    /// finished lines (they stay, scrolling up) and, if `withBoard`, the board anew.
    /// Built as one string so the terminal gets it in one write and does not flicker.
    private func redrawText(_ state: inout State, at now: Duration, withBoard: Bool) -> String {
        var text = ""
        if withBoard, !state.isCursorHidden {
            text += ANSI.hideCursor
            state.isCursorHidden = true
        }
        if state.drawnLineCount > 0 {
            text += "\r" + ANSI.cursorUp(state.drawnLineCount)
        }
        text += ANSI.clearToEndOfScreen
        for line in state.pendingLines {
            text += line + "\n"
        }
        state.pendingLines.removeAll(keepingCapacity: true)

        var boardLines: [String] = []
        if withBoard {
            let size = output.size()
            let layout = ProgressBoardLayout(columns: size.columns, lines: size.lines)
            let activeCount = state.batch.activeCount
            let rows = state.batch.activeRows(limit: layout.visibleRowCount(activeCount: activeCount))
            boardLines = layout.boardLines(rows: rows, activeCount: activeCount, at: now, frame: state.frame)
        }
        for line in boardLines {
            text += line + "\n"
        }
        state.drawnLineCount = boardLines.count
        state.frame &+= 1
        return text
    }
}
