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

    /// EL 0: erases from the cursor to the end of its line, so a line written over a longer
    /// one leaves nothing of it behind.
    static let clearToEndOfLine = "\u{1B}[K"

    /// EL 2: erases the whole line the cursor is on, leaving the cursor where it is.
    static let clearLine = "\u{1B}[2K"

    /// CUD: moves the cursor `lines` down, staying in its column; never scrolls.
    static func cursorDown(_ lines: Int) -> String {
        "\u{1B}[\(lines)B"
    }
}
