import Glibc
import SyncAgentKit

/// Picks how `syncagent --once` shows progress: a live board when `output` is a terminal
/// that understands cursor movement, one plain line per event otherwise (a pipe, a file,
/// journald, or `TERM=dumb`, as in Emacs shells). `verbose` adds URLs; `folder` (as shown,
/// `~` for home) goes into the summary.
func makeProgressReporter(
    output: FileDescriptorOutput = .standardOutput, style: TerminalStyle, verbose: Bool, folder: String
) -> any ProgressReporter {
    let isDumbTerminal = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
    guard output.isTerminal, !isDumbTerminal else {
        return PlainProgressReporter(output: output, style: style, verbose: verbose, folder: folder)
    }
    return TerminalProgressBoard(output: output, style: style, verbose: verbose, folder: folder)
}
