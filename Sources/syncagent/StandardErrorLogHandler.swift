import Glibc
import Logging

/// Log lines on stderr, in the form the reader expects.
///
/// On a terminal, a pipe or a file: `syncagent: warning: message`, as command-line tools
/// write. When stderr is the journal's stream: `<4>message`, the syslog priority prefix
/// journald turns into the entry's level, without a timestamp or name it adds itself.
///
/// Lines go out through ``FileDescriptorOutput``, never `FileHandle.write(_:)`, which traps
/// when the reader has gone away (`syncagent --once 2>&1 | head -1`): a closed stderr loses
/// the log, never the work.
/// - SeeAlso: https://www.freedesktop.org/software/systemd/man/latest/sd-daemon.html
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    private let output = FileDescriptorOutput.standardError
    private let toJournal = JournalStream.isStandardError()

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line: String
        if toJournal {
            line = "<\(Self.syslogPriority(event.level))>\(event.message)"
        } else {
            line = "syncagent: " + (event.level == .info ? "" : "\(event.level): ") + "\(event.message)"
        }
        output.write(line + "\n")
    }

    private static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
