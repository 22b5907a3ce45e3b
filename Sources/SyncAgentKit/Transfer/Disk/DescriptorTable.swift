import Glibc
import Synchronization

/// Grows the process's table of descriptors once, ahead of need, on a thread of its own.
///
/// The kernel's table starts with room for 64 descriptors and is replaced by a larger one as
/// more are opened. In a process with more than one thread, each replacement waits for an RCU
/// grace period (`synchronize_rcu` in `expand_fdtable`) — 4–14 ms here, on the engine's thread,
/// in the middle of receiving: a fetch of many small files holds up to two commit groups open
/// (512 descriptors). Grown once to room for ``size`` when downloads' files reach ``growthMark``,
/// on a short-lived thread, the table is large enough before the engine gets there: it waits
/// only if it needs a descriptor beyond the old table while the grace period is still running.
/// The table never shrinks; room for 1,024 descriptors takes about 9 KiB.
enum DescriptorTable {
    /// The table's size after growing, kept under the soft limit on open files (a desktop
    /// session's is 1,024: growing cannot raise it).
    static let size = 1024

    /// Set when the growth has been started.
    private static let started = Atomic<Bool>(false)
    /// Whether the growth is over, for ``waitUntilGrown()``.
    private static let growth = Growth()

    /// Whether the growth is over, under a lock to wait on.
    private final class Growth: @unchecked Sendable {
        let condition = ConditionLock()
        /// Guarded by `condition`.
        var isOver = false
    }

    /// A download's descriptor from which the table is grown: half the table the kernel
    /// starts with. A few downloads at once stay below it (five big files use 16–23), and
    /// cost no thread; a fetch that holds finished files open for their group passes it
    /// early, with 32 descriptors to go before the first growth the engine would wait for.
    static let growthMark: Int32 = 32

    /// Starts growing the table on a thread of its own, the first time a download's
    /// descriptor reaches ``growthMark``; later calls cost a comparison or an atomic load.
    static func growAhead(opened descriptor: Int32) {
        guard descriptor >= growthMark, !started.load(ordering: .relaxed),
              started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        startDetachedThread(named: "syncagent.fds") {
            _ = grow(toHold: min(size, openFileLimit()))
            growth.condition.withLock { growth.isOver = true }
            growth.condition.broadcast()
        }
    }

    /// Waits until the growth started by ``growAhead(opened:)`` is over (for tests); `false` at once
    /// when none was started.
    static func waitUntilGrown() -> Bool {
        guard started.load(ordering: .relaxed) else { return false }
        growth.condition.lock()
        defer { growth.condition.unlock() }
        while !growth.isOver { growth.condition.wait() }
        return true
    }

    /// Makes the table hold at least `count` descriptors now; returns whether it could. A
    /// descriptor of our own is copied to number `count - 1` and both are closed: never one
    /// the rest of the process opened, whose closing would drop its POSIX locks (SQLite's).
    static func grow(toHold count: Int) -> Bool {
        guard count > 0 else { return true }
        let own = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { return false }
        defer { close(own) }
        let copy = fcntl(own, F_DUPFD_CLOEXEC, Int32(count - 1))
        guard copy >= 0 else { return false }
        close(copy)
        return true
    }

    /// The soft limit on open files (unlimited is the largest `rlim_t`, clamped to `Int.max`).
    private static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(clamping: limit.rlim_cur)
    }

    /// How many descriptors the table holds now (`FDSize` in `/proc/self/status`), or `nil`.
    static func capacity() -> Int? {
        guard let status = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(status) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), status) != nil {
            let text = line.withUnsafeBufferPointer { String(validatingCString: $0.baseAddress!) ?? "" }
            if text.hasPrefix("FDSize:") { return Int(String(text.dropFirst("FDSize:".count).filter(\.isNumber))) }
        }
        return nil
    }
}
