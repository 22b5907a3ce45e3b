import Dispatch
import Glibc

/// Calls a handler each time the terminal window changes size (SIGWINCH), on a queue, until
/// cancelled.
///
/// `@unchecked Sendable`: it holds only a Dispatch signal source, whose `cancel()` may be
/// called from any thread, as Dispatch documents; the handler is set once, before `resume()`.
final class WindowResizeSignal: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    /// Starts calling `handler` on `queue` on every SIGWINCH. SIGWINCH's default action is
    /// to ignore it, so nothing changes for the process until it is watched.
    init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Stops watching; the handler is not called again.
    func cancel() {
        source.cancel()
    }
}
