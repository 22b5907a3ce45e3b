import Foundation
import Logging

/// Log lines as command-line tools write them: `syncagent: warning: message`, on stderr.
///
/// No timestamps: a terminal user sees the time, and journald adds its own.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level = event.level == .info ? "" : "\(event.level): "
        FileHandle.standardError.write(Data("syncagent: \(level)\(event.message)\n".utf8))
    }
}
