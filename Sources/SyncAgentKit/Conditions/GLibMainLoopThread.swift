internal import CGIO
import Dispatch
import Synchronization

/// A thread of its own running a private `GMainContext` in a `GMainLoop`, so GLib objects
/// made on it deliver their signals there — never on the process's global default context,
/// which libnotify uses elsewhere.
///
/// Owns the context and the loop (unreferenced in `deinit`) and the `GThread` (joined by
/// ``stop()``). GLib's context, loop and thread handles are thread-safe; everything else
/// made on the thread stays on it.
final class GLibMainLoopThread: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let thread: UnsafeMutablePointer<GThread>
    private let isJoined = Mutex(false)

    /// Starts the thread, named `name` (Linux keeps 15 bytes of it, in
    /// `/proc/PID/task/TID/comm`). On it, with the private context as the thread-default
    /// context, calls `setUp`, keeps what it returns alive while the loop runs and releases
    /// it there once the loop ends. Returns once the loop runs.
    init<Resource>(name: String, setUp: @escaping @Sendable () -> Resource) throws(ConditionMonitorError) {
        guard let context = g_main_context_new(), let loop = g_main_loop_new(context, 0) else {
            fatalError("g_main_context_new returned NULL; GLib aborts on allocation failure, so this cannot happen")
        }
        let body = LoopThreadBody(context: context, loop: loop, setUp: setUp)
        var error: UnsafeMutablePointer<GError>?
        let started = g_thread_try_new(name, { raw in
            Unmanaged<LoopThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(body).toOpaque(), &error)
        guard let thread = started else {
            defer { if let error { g_error_free(error) } }
            Unmanaged.passUnretained(body).release()
            g_main_loop_unref(loop)
            g_main_context_unref(context)
            let detail = error?.pointee.message.map { String(cString: $0) } ?? "no details"
            throw ConditionMonitorError(.threadUnavailable, "cannot start the thread that watches power and network (\(detail))")
        }
        self.context = context
        self.loop = loop
        self.thread = thread
        body.running.wait()
    }

    deinit {
        stop()
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Whether the caller runs on this thread (for example inside a signal handler).
    var isCurrentThread: Bool {
        g_thread_self() == thread
    }

    /// Runs `work` on the loop's thread, after the work handed to it before; at once when
    /// called on that thread.
    func invoke(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(InvokedWork(work)).toOpaque()
        g_main_context_invoke_full(context, 0 /* G_PRIORITY_DEFAULT */, runInvokedWork, box, releaseInvokedWork)
    }

    /// Ends the loop and waits until the thread has released everything it made and
    /// exited. Doing it twice is harmless; doing it on the thread itself would wait forever
    /// and traps.
    func stop() {
        let mustJoin = isJoined.withLock { isJoined in
            defer { isJoined = true }
            return !isJoined
        }
        guard mustJoin else { return }
        precondition(!isCurrentThread, "GLibMainLoopThread.stop() called on its own thread would wait for itself")
        // The loop is known to run (init waited for it), so a quit cannot be lost before it.
        g_main_loop_quit(loop)
        // Also drops the reference g_thread_try_new returned.
        g_thread_join(thread)
    }
}

/// What the thread runs; passed to it retained, released when the thread ends.
private final class LoopThreadBody: @unchecked Sendable {
    /// Signalled from inside the running loop: from then on `g_main_loop_quit` cannot be lost.
    let running = DispatchSemaphore(value: 0)
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let work: () -> Void

    init<Resource>(context: OpaquePointer, loop: OpaquePointer, setUp: @escaping @Sendable () -> Resource) {
        self.context = context
        self.loop = loop
        work = { [context, loop, running] in
            let resource = setUp()
            let announce = g_idle_source_new()
            g_source_set_callback(announce, signalSemaphore, Unmanaged.passUnretained(running).toOpaque(), nil)
            g_source_attach(announce, context)
            g_source_unref(announce)
            g_main_loop_run(loop)
            withExtendedLifetime(resource) {}
        }
    }

    func run() {
        g_main_context_push_thread_default(context)
        work()
        // Releasing GLib objects can hand work back to the context (GDBus finishes
        // unsubscribing in idle callbacks); run it now so nothing stays allocated.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
    }
}

/// Signals the semaphore passed (unretained) as the source's data; runs once.
private let signalSemaphore: GSourceFunc = { semaphore in
    Unmanaged<DispatchSemaphore>.fromOpaque(semaphore!).takeUnretainedValue().signal()
    return 0
}

/// Work handed to the loop by ``GLibMainLoopThread/invoke(_:)``.
private final class InvokedWork {
    let work: @Sendable () -> Void

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
    }
}

/// Runs the ``InvokedWork`` passed as the source's data, once.
private let runInvokedWork: GSourceFunc = { box in
    Unmanaged<InvokedWork>.fromOpaque(box!).takeUnretainedValue().work()
    return 0
}

/// Releases the ``InvokedWork`` once GLib is done with it.
private let releaseInvokedWork: GDestroyNotify = { box in
    Unmanaged<InvokedWork>.fromOpaque(box!).release()
}
