/// Which lines a terminal progress board shows, for a terminal of a given size: one row
/// per running file, as many as fit, then "+N more" for the rest, and at the bottom the
/// batch's overall line.
///
/// The board leaves two terminal lines free, so the lines that scrolled up above it
/// (finished files) stay in view and the board never scrolls itself.
public struct ProgressBoardLayout: Sendable, Equatable {
    /// The terminal's width in columns.
    public let columns: Int
    /// The terminal's height in lines.
    public let lines: Int
    /// Colours and symbols.
    public let style: TerminalStyle
    /// Whether the last line is the batch's overall line.
    public let showsOverall: Bool

    /// A layout for a terminal of `columns` × `lines`, drawn in `style`, with an overall
    /// line at the bottom if `showsOverall`.
    public init(columns: Int, lines: Int, style: TerminalStyle = TerminalStyle(), showsOverall: Bool = false) {
        self.columns = columns
        self.lines = lines
        self.style = style
        self.showsOverall = showsOverall
    }

    /// The most lines the board may take, "+N more" and the overall line included.
    public var maximumLines: Int { max(1, lines - 2) }

    /// The most lines the file rows may take, "+N more" included.
    private var rowLines: Int { max(1, maximumLines - (showsOverall ? 1 : 0)) }

    /// How many running files the board fetches to draw `activeCount` of them: all if
    /// they fit, otherwise one line less, to leave room for "+N more".
    public func visibleRowCount(activeCount: Int) -> Int {
        activeCount <= rowLines ? activeCount : rowLines - 1
    }

    /// The board's lines: `rows` (the first running files, at most
    /// ``visibleRowCount(activeCount:)`` of them) formatted to the width, "+N more" when
    /// `activeCount` is larger than what is shown, and `overall` last if the layout shows it.
    ///
    /// Lines take one column less than the terminal, so that a full line does not leave the
    /// cursor in the wrap position, where terminals disagree on what a newline does.
    public func boardLines(rows: [ProgressRow], activeCount: Int, at time: Duration, frame: Int, overall: ProgressOverall? = nil) -> [String] {
        let width = max(1, columns - 1)
        let shown = rows.prefix(visibleRowCount(activeCount: activeCount))
        let formatter = ProgressRowFormatter(width: width, style: style)
        var lines = shown.map { formatter.format($0, at: time, frame: frame) }
        let hidden = activeCount - shown.count
        if hidden > 0 {
            lines.append(ProgressText.truncated("+\(hidden) more", toColumns: width, ellipsis: style.symbols.ellipsis))
        }
        if showsOverall, let overall {
            lines.append(overall.line(width: width, style: style))
        }
        return lines
    }

    /// How many screen rows lines of `widths` columns take once the terminal is `columns`
    /// wide: one each while they fit, more once a narrower window rewraps them (tmux, VTE,
    /// kitty, Konsole reflow text on a resize). A board backs up this many rows to redraw
    /// itself after the window shrank, so no piece of the old frame stays behind.
    public static func screenRows(ofLineWidths widths: [Int], columns: Int) -> Int {
        let columns = max(1, columns)
        return widths.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
    }
}
