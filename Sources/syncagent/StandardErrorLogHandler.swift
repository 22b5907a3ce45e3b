import Foundation
import Logging

/// Log lines on stderr, in the form the reader expects.
///
/// On a terminal: `syncagent: warning: message`, as command-line tools write. Under systemd
/// (stderr connected to the journal, `$JOURNAL_STREAM` set): `<4>message`, the syslog priority
/// prefix journald turns into the entry's level, without a timestamp or name it adds itself.
/// - SeeAlso: https://www.freedesktop.org/software/systemd/man/latest/sd-daemon.html
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    private let toJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

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
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
