internal import CLinux
import FoundationEssentials
import Glibc

/// A thread that writes blocks to a file in order, so that the engine's thread receives the
/// next blocks while the device takes this one.
///
/// Direct I/O writes wait for the device; done on the engine's thread, every block would stall
/// all transfers for as long as the disk takes (half a millisecond a mebibyte here). With one
/// block being written here and the next ones filling there, receiving and writing overlap;
/// a few blocks queued absorb the moments when one side is briefly slower.
///
/// Built on a plain thread and a condition variable, not on Dispatch (see ``startDetachedThread(named:_:)``).
/// The thread lives as long as one big download; it ends after ``finish()``.
final class BlockWriteThread: @unchecked Sendable {
    private let descriptor: Int32
    private let condition = ConditionLock()
    /// Guarded by `condition`: blocks handed over and not yet written, oldest first; the first
    /// is being written.
    private var pending: [UnsafeMutableRawBufferPointer] = []
    /// Guarded by `condition`: blocks written, for the caller to fill again.
    private var written: [UnsafeMutableRawBufferPointer] = []
    /// Guarded by `condition`: `errno` of the first failed write.
    private var failure: Int32?
    /// Guarded by `condition`.
    private var finishing = false

    /// Starts the thread; `descriptor` must stay open until ``finish()`` returns.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        startDetachedThread(named: "syncagent.block-writer") { [self] in serve() }
    }

    /// Queues `block` to be written after those already queued. The caller must not touch it
    /// until ``reclaim()`` hands it back. Returns the `errno` of a failed earlier write instead,
    /// if there was one.
    func write(_ block: UnsafeMutableRawBufferPointer) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        if let failure { return failure }
        pending.append(block)
        condition.broadcast()
        return nil
    }

    /// The block written longest ago, to fill again, waiting for one if none is; or the
    /// `errno` of a failed write. Oldest first, so that a writer's blocks take turns: one
    /// that changes the kind of block it fills (see ``DirectIOBlocks``) meets each of its old
    /// ones in a round.
    func reclaim() -> Result<UnsafeMutableRawBufferPointer, WriteError> {
        condition.lock()
        defer { condition.unlock() }
        while written.isEmpty && failure == nil { condition.wait() }
        if let failure { return .failure(WriteError(code: failure)) }
        return .success(written.removeFirst())
    }

    /// The block written longest ago if one is back, without waiting: how a writer gives up
    /// blocks it no longer needs.
    func reclaimIfWritten() -> UnsafeMutableRawBufferPointer? {
        condition.lock()
        defer { condition.unlock() }
        return written.isEmpty ? nil : written.removeFirst()
    }

    /// Waits until every queued block is written; returns the `errno` of a failed write, if any.
    func waitUntilWritten() -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty && failure == nil { condition.wait() }
        return failure
    }

    /// Waits for the blocks queued, lets the thread end, and returns every block it held.
    func finish() -> [UnsafeMutableRawBufferPointer] {
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty && failure == nil { condition.wait() }
        finishing = true
        condition.broadcast()
        // After a failure the thread writes nothing more: what is still queued is ours again.
        defer { pending = []; written = [] }
        return written + pending
    }

    /// `errno` of a failed write.
    struct WriteError: Error {
        let code: Int32
    }

    private func serve() {
        while true {
            condition.lock()
            while pending.isEmpty && !finishing { condition.wait() }
            guard let block = pending.first, failure == nil else {
                condition.unlock()
                return
            }
            condition.unlock()
            let error = writeAll(UnsafeRawBufferPointer(block))
            condition.lock()
            pending.removeFirst()
            written.append(block)
            failure = failure ?? error
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Writes all of `block`; returns `errno` if that failed.
    private func writeAll(_ block: UnsafeRawBufferPointer) -> Int32? {
        var remaining = block
        while !remaining.isEmpty {
            let written = Glibc.write(descriptor, remaining.baseAddress, remaining.count)
            if written < 0 {
                if errno == EINTR { continue }
                // Some filesystems accept O_DIRECT at open and refuse it at write: go on without.
                if errno == EINVAL, BlockWriter.setDirect(descriptor, false) { continue }
                return errno
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
        return nil
    }
}
