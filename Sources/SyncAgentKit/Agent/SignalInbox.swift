internal import CLinux
import Glibc

/// Unix signals as requests read from a descriptor: SIGTERM and SIGINT ask to stop, SIGHUP to
/// reload the manifest.
///
/// The signals are blocked and received through `signalfd(2)`, which the transfer loop's
/// `curl_multi_poll` watches like any socket: a signal wakes the loop directly, and no
/// handler ever runs on an interrupted stack. Signals must be blocked in every thread, so
/// create the inbox before the process starts any thread; threads inherit the mask.
public final class SignalInbox: LoopRequests {
    /// Readable when a signal is waiting.
    public let descriptor: Int32
    private var blocked = sigset_t()

    public init() {
        sigemptyset(&blocked)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&blocked, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        descriptor = signalfd(-1, &blocked, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { fatalError("signalfd failed: \(systemReason())") }
    }

    deinit {
        close(descriptor)
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
    }

    /// The requests received since the last call, oldest first.
    public func take() -> [LoopRequest] {
        var requests: [LoopRequest] = []
        var info = signalfd_siginfo()
        while read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            requests.append(Int32(info.ssi_signo) == SIGHUP ? .reload : .stop)
        }
        return requests
    }
}
