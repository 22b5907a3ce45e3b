/// Lays out one progress row to fit a terminal width:
/// `Title…  [#######-----]  12.3 MB / 28.6 MB    3.1 MB/s  ETA 5 s`.
///
/// Columns have fixed minimum widths, so the rows of a board line up; the title column
/// and the bar share what is left. When the width is short, the ETA goes first, then the
/// speed; the bar and the byte counts stay as long as anything can. A file of unknown
/// size gets a marker that moves with `frame` instead of a filled bar, and no ETA.
public struct ProgressRowFormatter: Sendable {
    /// The columns a row may take. A board passes one less than the terminal is wide, so
    /// a full row never leaves the cursor in the wrap position.
    public let width: Int
    /// Colours and symbols.
    public let style: TerminalStyle

    private static let separator = "  "
    private static let bytesColumns = 17
    private static let speedColumns = 10
    private static let etaColumns = 13
    private static let titleMinimum = 8
    private static let titleMaximum = 48
    private static let barMinimum = 8
    private static let barMaximum = 50

    /// A formatter for rows of at most `width` columns, drawn in `style`.
    public init(width: Int, style: TerminalStyle = TerminalStyle()) {
        self.width = width
        self.style = style
    }

    /// The row for `row` at `time`; `frame` counts redraws, to move the marker of a file
    /// of unknown size.
    public func format(_ row: ProgressRow, at time: Duration, frame: Int = 0) -> String {
        let title = ProgressText.sanitized(row.title)
        let bytes = Field(text: bytesText(for: row), columns: Self.bytesColumns, alignment: .right)
        let speed = Field(text: row.bytesPerSecond.map(formatByteRate) ?? "", columns: Self.speedColumns, alignment: .right)
        let eta = Field(text: "ETA " + formatRemainingTime(row.remainingTime, unknown: style.symbols.unknown), columns: Self.etaColumns, alignment: .left)

        guard let layout = [[bytes, speed, eta], [bytes, speed], [bytes]].lazy.compactMap(layout(for:)).first else {
            return narrowRow(title: title, bytes: bytes.text)
        }
        let titleText = ProgressText.leftAligned(title, inColumns: layout.titleColumns, ellipsis: style.symbols.ellipsis)
        if let retry = row.retry {
            let wait = formatRemainingTime(max(.zero, retry.at - time))
            let status = "retrying in \(wait): " + ProgressText.sanitized(retry.reason)
            let statusColumns = width - layout.titleColumns - Self.separator.count
            let shown = ProgressText.truncated(status, toColumns: statusColumns, ellipsis: style.symbols.ellipsis)
            return titleText + Self.separator + style.paint(shown, .yellow)
        }
        let bar = style.paint(bar(for: row, columns: layout.barColumns, frame: frame), .cyan)
        let fields = layout.fields.enumerated().map { index, field in
            field.aligned(isLast: index == layout.fields.count - 1)
        }
        return ([titleText, bar] + fields).joined(separator: Self.separator)
    }

    /// "12.3 MB / 28.6 MB", or "12.3 MB" when the size is unknown.
    private func bytesText(for row: ProgressRow) -> String {
        let received = formatByteCount(row.receivedBytes)
        guard let expected = row.expectedBytes else { return received }
        return received + " / " + formatByteCount(expected)
    }

    /// The title and bar widths when `fields` go on the right, or `nil` if they leave too
    /// little room for a title and a bar.
    private func layout(for fields: [Field]) -> Layout? {
        let separators = Self.separator.count
        let fieldColumns = fields.reduce(0) { $0 + $1.width } + separators * (fields.count - 1)
        let shared = width - fieldColumns - 2 * separators
        guard shared >= Self.titleMinimum + Self.barMinimum else { return nil }
        // The title gets three fifths: it is what tells rows apart.
        let titleColumns = min(Self.titleMaximum, max(Self.titleMinimum, shared * 3 / 5))
        let barColumns = min(Self.barMaximum, shared - titleColumns)
        return Layout(fields: fields, titleColumns: titleColumns, barColumns: barColumns)
    }

    /// A row too narrow for a bar: the title and the byte count, or only the title.
    private func narrowRow(title: String, bytes: String) -> String {
        let titleColumns = width - Self.separator.count - ProgressText.columns(of: bytes)
        guard titleColumns >= Self.titleMinimum else { return ProgressText.truncated(title, toColumns: width, ellipsis: style.symbols.ellipsis) }
        return ProgressText.leftAligned(title, inColumns: titleColumns, ellipsis: style.symbols.ellipsis) + Self.separator + bytes
    }

    /// `[#######-----]` for a known size; for an unknown one, `[   <=>      ]` with the
    /// marker bouncing between the ends as `frame` grows, so the row still shows life.
    private func bar(for row: ProgressRow, columns: Int, frame: Int) -> String {
        let inside = columns - 2
        if let fraction = row.fractionCompleted {
            let filled = min(inside, Int(Double(inside) * fraction))
            return "[" + ProgressText.repeated(UInt8(ascii: "#"), count: filled) + ProgressText.repeated(UInt8(ascii: "-"), count: inside - filled) + "]"
        }
        let marker = "<=>"
        let travel = inside - marker.count
        guard travel > 0 else { return "[" + ProgressText.repeated(UInt8(ascii: " "), count: inside) + "]" }
        let step = ((frame % (2 * travel)) + 2 * travel) % (2 * travel)
        let position = step <= travel ? step : 2 * travel - step
        return "[" + ProgressText.repeated(UInt8(ascii: " "), count: position) + marker
            + ProgressText.repeated(UInt8(ascii: " "), count: travel - position) + "]"
    }

    /// Where the columns of one row go.
    private struct Layout {
        var fields: [Field]
        var titleColumns: Int
        var barColumns: Int
    }

    /// One of the columns right of the bar.
    private struct Field {
        enum Alignment { case left, right }

        var text: String
        var columns: Int
        var alignment: Alignment

        /// The columns it takes: its minimum, or more if the text is longer.
        var width: Int { max(columns, ProgressText.columns(of: text)) }

        /// The text padded to its column; the last column is not padded on the right, so
        /// rows carry no trailing spaces.
        func aligned(isLast: Bool) -> String {
            switch alignment {
            case .right: ProgressText.rightAligned(text, inColumns: columns)
            case .left: isLast ? text : ProgressText.leftAligned(text, inColumns: width)
            }
        }
    }
}
