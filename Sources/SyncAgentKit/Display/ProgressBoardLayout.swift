/// Which lines a terminal progress board shows, for a terminal of a given size: one row
/// per running file, as many as fit, then "+N more" for the rest.
///
/// The board leaves two terminal lines free, so the lines that scrolled up above it
/// (finished files) stay in view and the board never scrolls itself.
public struct ProgressBoardLayout: Sendable, Equatable {
    /// The terminal's width in columns.
    public let columns: Int
    /// The terminal's height in lines.
    public let lines: Int

    /// A layout for a terminal of `columns` × `lines`.
    public init(columns: Int, lines: Int) {
        self.columns = columns
        self.lines = lines
    }

    /// The most lines the board may take, "+N more" included.
    public var maximumLines: Int { max(1, lines - 2) }

    /// How many running files the board fetches to draw `activeCount` of them: all if
    /// they fit, otherwise one line less, to leave room for "+N more".
    public func visibleRowCount(activeCount: Int) -> Int {
        activeCount <= maximumLines ? activeCount : maximumLines - 1
    }

    /// The board's lines: `rows` (the first running files, at most
    /// ``visibleRowCount(activeCount:)`` of them) formatted to the width, and
    /// "+N more" when `activeCount` is larger than what is shown.
    ///
    /// Rows take one column less than the terminal, so that a full row does not leave the
    /// cursor in the wrap position, where terminals disagree on what a newline does.
    public func boardLines(rows: [ProgressRow], activeCount: Int, at time: Duration, frame: Int) -> [String] {
        let shown = rows.prefix(visibleRowCount(activeCount: activeCount))
        let formatter = ProgressRowFormatter(width: max(1, columns - 1))
        var lines = shown.map { formatter.format($0, at: time, frame: frame) }
        let hidden = activeCount - shown.count
        if hidden > 0 {
            lines.append(ProgressText.truncated("+\(hidden) more", toColumns: max(1, columns - 1)))
        }
        return lines
    }
}
