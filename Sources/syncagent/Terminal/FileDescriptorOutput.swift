import Glibc

/// Where syncagent writes its progress and messages: an open file descriptor (standard
/// output or standard error), which may be a terminal, a pipe, a file or the journal.
///
/// Writes go straight to `write(2)`, unbuffered, so each line or frame reaches the reader
/// whole and at once, and nothing waits in a stdio buffer when the process is interrupted.
/// A reader that went away (EPIPE; SIGPIPE is ignored from `main`) is not an error: unlike
/// `FileHandle.write(_:)`, which traps there, the write is dropped and the work goes on.
struct FileDescriptorOutput: Sendable {
    /// The size of a terminal, in character cells.
    struct Size: Sendable, Equatable {
        var columns: Int
        var lines: Int

        /// What a terminal that does not say its size is taken to be.
        static let fallback = Size(columns: 80, lines: 24)
    }

    /// The descriptor written to; not owned, never closed.
    let fileDescriptor: Int32

    /// The process's standard output.
    static let standardOutput = FileDescriptorOutput(fileDescriptor: STDOUT_FILENO)

    /// The process's standard error, for log lines and messages.
    static let standardError = FileDescriptorOutput(fileDescriptor: STDERR_FILENO)

    /// Whether the descriptor is a terminal, so a live board can be drawn on it.
    var isTerminal: Bool {
        isatty(fileDescriptor) == 1
    }

    /// The terminal's current size from `ioctl(TIOCGWINSZ)`, or ``Size/fallback`` when the
    /// descriptor is not a terminal or the terminal reports zero (as some ptys do).
    ///
    /// Asked afresh on each redraw (one cheap system call, ten times a second at most),
    /// so a resized window is followed without a SIGWINCH handler.
    func size() -> Size {
        var window = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0 else { return .fallback }
        return Size(
            columns: window.ws_col > 0 ? Int(window.ws_col) : Size.fallback.columns,
            lines: window.ws_row > 0 ? Int(window.ws_row) : Size.fallback.lines
        )
    }

    /// Writes all of `text`, continuing after partial writes and interrupted calls; returns
    /// whether it did.
    ///
    /// Other errors (the reader went away, the disk is full) drop the rest silently:
    /// progress output is a courtesy, and failing to show it must not stop a transfer.
    @discardableResult
    func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole, as ``write(_:)-(String)`` writes a string's.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll($0) }
    }

    /// Writes all of `bytes`, as ``write(_:)-(String)`` says.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = systemWrite(fileDescriptor, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
        return true
    }
}

/// `write(2)`, under a name that does not clash with ``FileDescriptorOutput/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
