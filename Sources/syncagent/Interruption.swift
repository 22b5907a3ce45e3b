import Dispatch
import Foundation

/// Ctrl-C during `--once`: put the terminal back, then end as an interrupted program does.
///
/// Partials stay on disk and their validators are already saved, so the next run resumes.
final class Interruption {
    private let source: any DispatchSourceSignal

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            onInterrupt()
            FileHandle.standardError.write(Data("syncagent: interrupted; the next run resumes where this one stopped\n".utf8))
            exit(130)
        }
        source.resume()
    }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
