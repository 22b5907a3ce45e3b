import Glibc
import SyncAgentKit

/// Picks how `syncagent --once` shows progress: a live board when `output` is a terminal
/// that understands cursor movement, one plain line per event otherwise (a pipe, a file,
/// journald, or `TERM=dumb`, as in Emacs shells).
func makeProgressReporter(output: FileDescriptorOutput = .standardOutput) -> any ProgressReporter {
    let isDumbTerminal = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
    guard output.isTerminal, !isDumbTerminal else { return PlainProgressReporter(output: output) }
    return TerminalProgressBoard(output: output)
}
