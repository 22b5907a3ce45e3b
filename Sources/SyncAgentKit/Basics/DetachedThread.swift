internal import CLinux
import Glibc

/// Runs `body` on a new thread of its own, named `name` for `top -H` and debuggers (cut to
/// the 15 bytes Linux keeps). The thread ends when `body` returns; nobody joins it.
///
/// A plain POSIX thread rather than Dispatch: an agent that has used Dispatch's global
/// queues keeps a once-a-second timer of libdispatch's running for the rest of its life, and
/// an idle agent must not wake at all. Rather than Foundation's `Thread`: syncagent links
/// only FoundationEssentials.
func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { context in
        let job = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
        _ = pthread_setname_np(pthread_self(), String(decoding: job.name.utf8.prefix(15), as: UTF8.self))
        job.body()
        return nil
    }, box)
    guard started == 0 else {
        // Out of threads: the process cannot go on doing what it promised.
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        fatalError("cannot start the thread \(name): \(systemReason(started))")
    }
    pthread_detach(thread)
}

private final class ThreadBody {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
