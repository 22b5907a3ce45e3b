/// The few ANSI (ECMA-48) control sequences the progress board needs; every terminal
/// emulator in use understands them.
enum ANSI {
    /// DECTCEM off: the cursor would otherwise flicker across the board on each redraw.
    static let hideCursor = "\u{1B}[?25l"
    /// DECTCEM on: gives the user back a visible cursor.
    static let showCursor = "\u{1B}[?25h"
    /// ED 0: erases from the cursor to the end of the screen, so a shorter board or a
    /// wrapped line leaves nothing of the old board behind.
    static let clearToEndOfScreen = "\u{1B}[J"

    /// CUU: moves the cursor `lines` up, staying in its column.
    static func cursorUp(_ lines: Int) -> String {
        "\u{1B}[\(lines)A"
    }
}
