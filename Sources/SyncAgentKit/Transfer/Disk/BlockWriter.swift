internal import CLinux
import Glibc

/// Writes a download's bytes: with direct I/O in blocks of 256 KiB (1 MiB once the file has
/// written a mebibyte while no other writes, 2 MiB in huge pages for a file of 64 MiB or more
/// then), or for files of a block or less (and where direct I/O is refused) through the page
/// cache as they come.
///
/// Files the server announces at more than a block (1 MiB) bypass the page cache (`O_DIRECT`):
/// copying the bytes into the cache costs more CPU than receiving them, and the flush before
/// the file is put in place would then have to write them all out again; written directly,
/// the bytes are on the device as they arrive and that flush is short (1 GiB: 0.8 s instead of
/// 3.3 s). curl hands the body over in pieces of at most 16 KiB, so gathering them into blocks
/// also saves 63 system calls in 64.
///
/// A file of a block or less goes to the page cache piece by piece, as curl delivers it: direct,
/// its one write would wait for the device on the engine's thread (or start a writer thread
/// for that one block), while its pages are written back by its group's flush, on the
/// ``CommitThread``, as the engine goes on (1,000 files of 100 KiB: about 0.32 s instead of
/// 0.49 s). Files of 128 KiB or less are also created without a name (see ``PartFile``).
///
/// Direct I/O needs block-aligned memory, lengths and file offsets: the buffer is aligned, whole
/// blocks go out directly, and the last partial block through the page cache. Direct writes
/// wait for the device, so they are made on a ``BlockWriteThread`` while the next block fills;
/// the blocks come from the engine's ``DirectIOBlocks``, which caps them for all files at once.
final class BlockWriter {
    /// Files longer than this (when the server says so) are written with direct I/O: more
    /// than one block.
    static let directThreshold: Int64 = Int64(DirectIOBlocks.blockLength) + 1
    /// Alignment for direct I/O: a multiple of every device's logical block size in use.
    static let alignment = 4096
    private let descriptor: Int32
    private let path: String
    /// Where the blocks come from and go back to; `nil` without direct I/O.
    private let pool: DirectIOBlocks?
    /// The block being filled: the first `count` bytes of a pool block, or nothing without
    /// direct I/O.
    private var buffer: UnsafeMutableRawBufferPointer
    /// Blocks handed to `thread` or back from it, besides `buffer` (direct I/O only).
    private var blocks = 1
    /// The most of a block this file fills: less than a block when the whole file is shorter.
    private var largestFill = 0
    /// The bytes still to come when the writer was made, if the server said.
    private let remaining: Int64?
    /// The bytes handed to `thread` so far.
    private var written: Int64 = 0
    private var count = 0
    private var direct: Bool
    private var thread: BlockWriteThread?

    /// A writer appending to `descriptor`, positioned at `offset`. Tries direct I/O when the
    /// file will be big and the offset allows it; without it (a filesystem that refuses it, or
    /// a resume from an odd offset) the writes go through the page cache. `pool` lends the
    /// blocks: the engine's, shared by all its writers, or one of the writer's own.
    init(descriptor: Int32, path: String, offset: Int64, expectedLength: Int64?, pool: DirectIOBlocks = DirectIOBlocks()) {
        self.descriptor = descriptor
        self.path = path
        let remaining = expectedLength.map { max(0, $0 - offset) }
        self.remaining = remaining
        let wantsDirect = (expectedLength ?? 0) >= Self.directThreshold && offset % Int64(Self.alignment) == 0
        direct = wantsDirect && Self.setDirect(descriptor, true)
        // Only direct I/O gathers blocks; the others have no buffer at all.
        guard direct else {
            self.pool = nil
            buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            return
        }
        self.pool = pool
        pool.join()
        // A file shorter than a block uses only the part it needs: full means the file is whole.
        let capacity = remaining.map { Int(min($0, Int64(DirectIOBlocks.longBlockLength))) } ?? DirectIOBlocks.blockLength
        largestFill = max(Self.alignment, (capacity + Self.alignment - 1) / Self.alignment * Self.alignment)
        let fill = min(largestFill, pool.nextFill(written: 0, remaining: remaining))
        buffer = UnsafeMutableRawBufferPointer(start: pool.take(holding: fill), count: fill)
    }

    deinit {
        guard let pool else { return }
        // The thread may still be writing blocks: it must be done before they are lent again.
        for block in thread?.finish() ?? [] { pool.giveBack(block) }
        pool.giveBack(buffer)
        pool.leave()
    }

    /// The length of the block being filled: what the next direct write hands to the thread.
    var fillingLength: Int { buffer.count }

    /// Adds bytes: through the page cache at once, or with direct I/O into the buffer, which
    /// is written out each time it is full (whole blocks: its size is a multiple of the
    /// alignment).
    func append(_ bytes: UnsafeRawBufferPointer) throws(TransferFailure) {
        // Without direct I/O nothing is buffered: the bytes go straight to the file.
        guard direct else { return try writeAll(bytes) }
        var rest = bytes
        while !rest.isEmpty {
            let taken = min(rest.count, buffer.count - count)
            UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + taken])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            count += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            if count == buffer.count {
                try writeFullBuffer()
            }
        }
    }

    /// Writes what is buffered, so the file holds every byte appended: whole blocks directly,
    /// a last partial block through the page cache (direct I/O stays off from then on).
    func flush() throws(TransferFailure) {
        if let thread, let error = thread.waitUntilWritten() { throw Self.failure(error, path) }
        if direct {
            let whole = count / Self.alignment * Self.alignment
            try writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<whole]))
            count -= whole
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + whole, byteCount: count)
            if count > 0 {
                direct = false
                _ = Self.setDirect(descriptor, false)
            }
        }
        try writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        count = 0
    }

    /// Writes a full buffer: on the thread with direct I/O, swapping in another block to fill
    /// next; here otherwise.
    private func writeFullBuffer() throws(TransferFailure) {
        guard direct, let pool else {
            try writeAll(UnsafeRawBufferPointer(buffer))
            count = 0
            return
        }
        let thread = self.thread ?? BlockWriteThread(descriptor: descriptor)
        self.thread = thread
        if let error = thread.write(buffer) { throw Self.failure(error, path) }
        count = 0
        written += Int64(buffer.count)
        // Each block is filled as far as the writers at this moment call for (all blocks are
        // whole multiples of the alignment, so every write stays aligned in the file).
        let fill = min(largestFill, pool.nextFill(written: written, remaining: remaining))
        if blocks < pool.share(remaining: remaining) {
            blocks += 1
            buffer = UnsafeMutableRawBufferPointer(start: pool.take(holding: fill), count: fill)
            return
        }
        switch thread.reclaim() {
        case .success(let block):
            // A long block for a long file alone, an ordinary one otherwise (see DirectIOBlocks).
            buffer = pool.reuse(block, toHold: fill)
            // More writers joined since this one took its blocks: what it has over its share
            // goes back as soon as it is written.
            while blocks > pool.share(remaining: remaining), let written = thread.reclaimIfWritten() {
                pool.giveBack(written)
                blocks -= 1
            }
        case .failure(let error):
            // `buffer` went to the thread, which gives it back in `finish()`: take another, so
            // that every block goes back exactly once.
            blocks += 1
            buffer = UnsafeMutableRawBufferPointer(start: pool.take(holding: fill), count: fill)
            throw Self.failure(error.code, path)
        }
    }

    private static func failure(_ error: Int32, _ path: String) -> TransferFailure {
        errno = error
        return .diskError("cannot write", path)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(TransferFailure) {
        var remaining = bytes
        while !remaining.isEmpty {
            let written = write(descriptor, remaining.baseAddress, remaining.count)
            if written < 0 {
                if errno == EINTR { continue }
                // Some filesystems accept O_DIRECT at open and refuse it at write: go on without.
                if errno == EINVAL, direct, Self.setDirect(descriptor, false) {
                    direct = false
                    continue
                }
                throw .diskError("cannot write", path)
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }

    /// Turns direct I/O on or off for an open descriptor; returns whether that worked.
    static func setDirect(_ descriptor: Int32, _ on: Bool) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return false }
        return fcntl(descriptor, F_SETFL, on ? flags | syncagent_O_DIRECT : flags & ~syncagent_O_DIRECT) == 0
    }
}
