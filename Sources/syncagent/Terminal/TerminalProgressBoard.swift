import Dispatch
import Glibc
import SyncAgentKit
import Synchronization

/// Shows a batch on a terminal as a live board: one row per running file (title, bar,
/// bytes, speed, ETA), redrawn in place, then the batch's overall line (files, bytes, speed,
/// ETA), with finished files scrolling up above it as plain lines ("✓ Title  28.6 MB",
/// "= Title  unchanged", "✗ Title  reason (host)").
///
/// Events only update the model; redraws are throttled to ten a second by
/// ``ProgressRedrawThrottle``, so a flood of progress reports or 10,000 small files cost
/// a dictionary update each. A change that arrives too soon after a redraw is drawn by a
/// wake-up at the end of the interval, so the board never stays behind.
///
/// A resized window (SIGWINCH) is redrawn at once, at its new size: after a shrink the
/// terminal has rewrapped the old frame's lines onto more rows, and the board backs up over
/// all of them before drawing, so no broken frame stays behind.
///
/// The cursor is hidden while the board is up and shown again by ``finish()`` or
/// ``restore()``. All state sits behind one lock, because those two may come from a
/// signal handler's queue while the engine's thread reports events.
final class TerminalProgressBoard: ProgressReporter {
    private let output: FileDescriptorOutput
    private let style: TerminalStyle
    private let verbose: Bool
    private let folder: String?
    private let clock = ElapsedClock()
    private let state = Mutex(State())
    private let wakeUps = DispatchQueue(label: "syncagent.progress-board")
    private let resizes = Mutex<WindowResizeSignal?>(nil)

    /// What the board knows and what it has drawn.
    private struct State: Sendable {
        var batch = ProgressBatch()
        var throttle = ProgressRedrawThrottle()
        /// Lines of finished files not yet written above the board.
        var pendingLines: [String] = []
        /// The columns each line of the last redraw took; the cursor sits below them.
        var drawnLineWidths: [Int] = []
        /// Counts redraws, to move the marker of files of unknown size.
        var frame = 0
        var isCursorHidden = false
        var isClosed = false
    }

    /// A board drawn on `output`, which must be a terminal, in `style`; `verbose` adds each
    /// file's URL to its finished line, and `folder` (as shown, `~` for home) goes into the
    /// summary.
    init(output: FileDescriptorOutput, style: TerminalStyle, verbose: Bool = false, folder: String? = nil) {
        self.output = output
        self.style = style
        self.verbose = verbose
        self.folder = folder
        let signal = WindowResizeSignal(queue: wakeUps) { [weak self] in self?.resized() }
        resizes.withLock { $0 = signal }
    }

    func batchPlanned(fileCount: Int) {
        change { state, _ in state.batch.plan(fileCount: fileCount) }
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

    func transferFinished(path: String, title: String, url: String, outcome: TransferOutcome) {
        change { state, now in
            state.batch.finish(path: path, outcome: outcome, at: now)
            state.pendingLines.append(ProgressLines.finished(title: title, outcome: outcome, style: style, url: url, verbose: verbose))
        }
    }

    /// Takes the board down, writes the last finished lines and the summary, and shows
    /// the cursor.
    func finish() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            let now = clock.now()
            let summary = state.batch.tally.summary(unfinished: state.batch.activeCount, folder: folder, elapsed: now)
            var text = redrawText(&state, at: now, withBoard: false, last: [style.paint(summary, .bold)])
            if state.isCursorHidden { text += ANSI.showCursor }
            output.write(text)
        }
        resizes.withLock { $0?.cancel() }
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
        resizes.withLock { $0?.cancel() }
    }

    /// The window changed size: redraw now, whatever the throttle says, since the frame
    /// on screen may be broken until then.
    private func resized() {
        state.withLock { state in
            guard !state.isClosed, state.isCursorHidden else { return }
            let now = clock.now()
            output.write(redrawText(&state, at: now, withBoard: true))
            state.throttle.didRedraw(at: now)
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

    /// The text of one redraw: back up over the old board, write the pending finished lines
    /// (they stay, scrolling up), the board anew if `withBoard`, and `last` lines (the
    /// summary), then erase what is left of the old board below.
    /// Built as one string so the terminal gets it in one write and does not flicker.
    ///
    /// Each line erases the rest of its row (EL) as it is written, and the screen below is
    /// erased (ED) only after at least one line: ED from the top-left corner is what `clear`
    /// sends, and tmux (`scroll-on-clear`) then pushes the whole screen into the scrollback,
    /// which would leave every frame of a board drawn at the top of the screen behind there.
    private func redrawText(_ state: inout State, at now: Duration, withBoard: Bool, last: [String] = []) -> String {
        var text = ""
        if withBoard, !state.isCursorHidden {
            text += ANSI.hideCursor
            state.isCursorHidden = true
        }
        // Asked afresh each time (one ioctl): the old frame's rows are counted at today's
        // width, so a window that shrank since is backed over whole.
        let size = output.size()
        let drawnRows = ProgressBoardLayout.screenRows(ofLineWidths: state.drawnLineWidths, columns: size.columns)
        if drawnRows > 0 {
            text += "\r" + ANSI.cursorUp(drawnRows)
        }
        var lines = state.pendingLines
        state.pendingLines.removeAll(keepingCapacity: true)

        var boardLines: [String] = []
        if withBoard {
            let layout = ProgressBoardLayout(columns: size.columns, lines: size.lines, style: style, showsOverall: true)
            let activeCount = state.batch.activeCount
            let rows = state.batch.activeRows(limit: layout.visibleRowCount(activeCount: activeCount))
            boardLines = layout.boardLines(rows: rows, activeCount: activeCount, at: now, frame: state.frame, overall: state.batch.overall())
        }
        lines += boardLines + last
        for line in lines {
            text += line + ANSI.clearToEndOfLine + "\n"
        }
        if !lines.isEmpty || drawnRows == 0 {
            text += ANSI.clearToEndOfScreen
        } else {
            // Nothing to write over the old board: erase its rows one by one, then come back.
            text += (0..<drawnRows).map { _ in ANSI.clearLine }.joined(separator: ANSI.cursorDown(1))
            if drawnRows > 1 { text += ANSI.cursorUp(drawnRows - 1) }
        }
        state.drawnLineWidths = boardLines.map(ProgressText.visibleColumns(of:))
        state.frame &+= 1
        return text
    }
}
