import Dispatch
import Glibc
import Synchronization

/// Unix signals as requests to the agent's loop: SIGTERM and SIGINT ask it to stop, SIGHUP to
/// reload the manifest.
///
/// Dispatch signal sources turn each signal into an ordinary callback (never a handler running
/// on an interrupted stack); the callback notes the request and wakes the loop.
final class SignalInbox {
    /// What a signal asks for.
    enum Request: Sendable {
        case stop, reload
    }

    /// Filled on the signal queue, emptied on the agent's thread.
    private final class Pending: Sendable {
        let requests = Mutex<[Request]>([])
    }

    private let pending = Pending()
    private let sources: [any DispatchSourceSignal]

    /// Starts listening; `wake` interrupts the agent's sleep.
    init(wake: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "syncagent.signals")
        let pending = pending
        var sources: [any DispatchSourceSignal] = []
        for (signalNumber, request) in [(SIGTERM, Request.stop), (SIGINT, .stop), (SIGHUP, .reload)] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                pending.requests.withLock { $0.append(request) }
                wake()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The requests received since the last call, oldest first.
    func take() -> [Request] {
        pending.requests.withLock { requests in
            defer { requests.removeAll() }
            return requests
        }
    }
}
