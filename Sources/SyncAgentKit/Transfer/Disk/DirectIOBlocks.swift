import Glibc

/// The aligned blocks every direct-I/O ``BlockWriter`` of one engine fills and hands to its
/// ``BlockWriteThread``, under one cap for them all.
///
/// The writer of a long file (``longFileLength``) alone may keep ``mostPerWriter`` blocks
/// (filling, queued, being written), so it overlaps receiving and writing as much as it
/// needs; any other keeps two. When several write at once, they share ``budget`` blocks, and
/// each keeps at least two — one filling while the other is written — so none writes on the
/// engine's thread. Writers fill only the first ``sharedFillLength`` bytes of each block, as
/// long as others write too or may yet (a download started whose response has not begun,
/// ``awaitingHeads``): the disk is what bounds them then, their writes overlap on the
/// device, and bigger blocks or more of them would only wait longer for it. A writer that has
/// written a mebibyte with no other writing, and none about to, fills whole blocks: written
/// one at a time, a quarter block keeps the device less busy (a 29 MB file alone took 77 ms
/// in quarter blocks, 56 ms in whole ones). Not sooner: files that start together join one by
/// one, and the first would fill whole blocks in the moment before the others join, and keep
/// their pages (five guides fetched at once: 22.4 MiB of memory at the peak when the first
/// writer went on to whole blocks before the others' responses began, 21.3 MiB when it waits
/// for them). A writer waits for others' responses only for its first ``headWaitLength``
/// bytes: files that start together see their responses within moments of each other, while
/// a big file among many small ones (never direct writers, but always some awaiting their
/// responses) would otherwise write quarter blocks for as long as small files keep coming.
///
/// The writer of a long file alone goes on to long blocks (``longBlockLength``) in huge
/// pages: each write is then one piece of memory the device takes in one go, where a block
/// of small pages is a list of pages it takes in several requests, one after the other. On
/// this machine's disk, 512 MiB took 137 ms in 2 MiB writes from huge pages, 191 ms in 1 MiB
/// writes from small pages (what `dd bs=1M oflag=direct` does), 180 ms in 2 MiB writes from
/// small pages; 4 MiB writes from huge pages took 128 ms, for twice the memory. A long block
/// is never lent to another writer: it is unmapped when given back.
///
/// Memory is touched only as far as blocks are filled, and a block keeps the pages it had
/// when it is filled less or lent again: so the pages past a quarter go back to the kernel
/// when a whole block is refilled as a quarter or given back, and a writer that goes on to
/// whole blocks unmaps the spare ones (not needed by a writer alone). Five guides fetched at
/// once peaked at 38.4 MiB of memory with whole blocks (four for the first writer), 29 MiB
/// with quarter blocks from the moment a second writer joined (5.6 MiB of blocks, most of
/// them pages the first writers had filled before the others joined); 2.5 MiB of blocks so.
///
/// Blocks are mapped memory, not the heap's: released, they leave the process's memory at
/// once, where the allocator could keep freed mebibytes for good. Blocks given back are lent
/// again, so consecutive files reuse pages already in memory instead of mapping and faulting
/// in new ones, until the engine has nothing left to do and ``releaseSpareBlocks()``
/// unmaps them (an idle agent holds none). Confined to the engine's thread, like the writers.
final class DirectIOBlocks {
    /// The length of every block but the long ones: one write(2) per mebibyte keeps the
    /// device busy and the memory small.
    static let blockLength = 1 << 20
    /// The length of a long block, and its alignment: one huge page (x86-64, arm64 with 4 KiB
    /// pages), so that the kernel can back it with one.
    static let longBlockLength = 2 << 20
    /// The most blocks the writer of a long file keeps when it writes alone.
    static let mostPerWriter = 4
    /// The fewest blocks one writer keeps however many write: one filling, one being written.
    static let fewestPerWriter = 2
    /// The bytes of each block a writer fills while others write too, and before it has
    /// written a block's worth alone: a quarter of a block.
    static let sharedFillLength = 256 << 10
    /// How much a writer alone writes before it stops waiting for the responses of downloads
    /// started beside it (see the type's description).
    static let headWaitLength: Int64 = 16 << 20

    /// Blocks the writers of this engine share when several write at once.
    let budget: Int
    /// A writer keeps more than the fewest blocks only for a download at least this long,
    /// where a few blocks queued absorb the moments when receiving or writing is briefly
    /// slower. A shorter file is written in a few tens of milliseconds either way.
    let longFileLength: Int64
    /// Blocks given back and not unmapped yet (never long ones).
    private var spare: [UnsafeMutableRawPointer] = []
    /// The long blocks lent and not given back.
    private var longBlocks: [UnsafeMutableRawPointer] = []
    /// Writers between ``join()`` and ``leave()``.
    private var writers = 0
    /// Blocks taken and not given back.
    private(set) var inUse = 0
    /// Downloads started whose response has not begun: each may yet become a writer.
    private(set) var awaitingHeads = 0

    /// A pool with room for `budget` blocks when several writers share it, whose writers keep
    /// more than the fewest blocks for files of `longFileLength` bytes or more.
    init(budget: Int = 8, longFileLength: Int64 = 64 << 20) {
        self.budget = budget
        self.longFileLength = longFileLength
    }

    deinit {
        for block in spare { munmap(block, Self.blockLength) }
    }

    /// The blocks one writer may keep now: fewer as more writers join.
    var share: Int {
        max(Self.fewestPerWriter, min(Self.mostPerWriter, budget / max(1, writers)))
    }

    /// How much of its next block a writer that has handed `written` bytes to its thread, of
    /// a download with `remaining` bytes still to come when it began, fills: a long block
    /// (``longBlockLength``) for a long download once it has written a block's worth while no
    /// other writes or may (or ``headWaitLength`` while none other writes); a whole block for
    /// a shorter one so; otherwise ``sharedFillLength``. A writer alone that goes on to whole
    /// blocks needs no spare ones: they are unmapped then.
    func nextFill(written: Int64, remaining: Int64? = nil) -> Int {
        guard writers <= 1, awaitingHeads == 0 || written >= Self.headWaitLength, written >= Self.blockLength else { return Self.sharedFillLength }
        releaseSpareBlocks()
        return (remaining ?? 0) >= longFileLength ? Self.longBlockLength : Self.blockLength
    }

    /// The blocks the writer of a file with `remaining` bytes still to come may keep now:
    /// ``share`` for a long download (at least ``longFileLength``), the fewest for a shorter
    /// one or one of no stated length. A few files that start together then never each take
    /// several whole blocks in the moment before the others join.
    func share(remaining: Int64?) -> Int {
        (remaining ?? 0) >= longFileLength ? share : Self.fewestPerWriter
    }

    /// Counts a download in that has started and may become a writer once its response begins.
    func awaitHead() {
        awaitingHeads += 1
    }

    /// Counts out a download counted in by ``awaitHead()``: its response began (whether or not
    /// it writes with direct I/O), or it ended without one.
    func headArrived() {
        awaitingHeads -= 1
    }

    /// Counts a writer in; it takes its blocks with ``take(holding:)``.
    func join() {
        writers += 1
    }

    /// Counts a writer out, once it has given back every block it took.
    func leave() {
        writers -= 1
    }

    /// Blocks given back and still mapped.
    var spareCount: Int { spare.count }

    /// Long blocks lent and not given back.
    var longCount: Int { longBlocks.count }

    /// Unmaps the blocks no writer holds.
    func releaseSpareBlocks() {
        for block in spare { munmap(block, Self.blockLength) }
        spare = []
    }

    /// A block aligned for direct I/O with room for `length` bytes: a long block for more than
    /// ``blockLength``, otherwise a spare block or a new mapping. Only a process out of memory
    /// gets none.
    func take(holding length: Int = blockLength) -> UnsafeMutableRawPointer {
        inUse += 1
        guard length <= Self.blockLength else {
            let block = Self.mapLongBlock()
            longBlocks.append(block)
            return block
        }
        if let block = spare.popLast() { return block }
        let block = mmap(nil, Self.blockLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let block, block != MAP_FAILED else { fatalError("cannot map a block for direct I/O: \(systemReason())") }
        return block
    }

    /// Takes back a block from ``take(holding:)``, filled as far as `block.count`: a long one
    /// is unmapped, any other kept to lend again with no more than a quarter of its pages in
    /// memory.
    func giveBack(_ block: UnsafeMutableRawBufferPointer) {
        inUse -= 1
        if let long = longBlocks.firstIndex(of: block.baseAddress!) {
            longBlocks.remove(at: long)
            munmap(block.baseAddress!, Self.longBlockLength)
            return
        }
        Self.releasePages(of: block, past: Self.sharedFillLength)
        spare.append(block.baseAddress!)
    }

    /// `block` (filled as far as its `count`) to fill again as far as `fill`: the same block
    /// when it has room for that and is not a long block kept for less, else another in its
    /// place (this one given back). Pages past `fill` go back to the kernel.
    func reuse(_ block: UnsafeMutableRawBufferPointer, toHold fill: Int) -> UnsafeMutableRawBufferPointer {
        let isLong = longBlocks.contains(block.baseAddress!)
        guard isLong == (fill > Self.blockLength) else {
            giveBack(block)
            return UnsafeMutableRawBufferPointer(start: take(holding: fill), count: fill)
        }
        if !isLong { Self.releasePages(of: block, past: fill) }
        return UnsafeMutableRawBufferPointer(start: block.baseAddress, count: fill)
    }

    /// Gives the pages of `block` (filled as far as its `count`) past its first `length` bytes
    /// back to the kernel: a block filled less from now on would otherwise keep them.
    static func releasePages(of block: UnsafeMutableRawBufferPointer, past length: Int) {
        guard block.count > length else { return }
        // Both ends are multiples of the alignment, and so of the page size.
        madvise(block.baseAddress! + length, block.count - length, MADV_DONTNEED)
    }

    /// Maps a long block on a boundary of its own length and asks for huge pages there (a
    /// kernel that has none, or is told not to, gives small pages: the block works the same).
    private static func mapLongBlock() -> UnsafeMutableRawPointer {
        let length = longBlockLength
        guard let mapping = mmap(nil, 2 * length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapping != MAP_FAILED else {
            fatalError("cannot map a block for direct I/O: \(systemReason())")
        }
        // Twice the length always holds one aligned block: the rest, before and after it, goes.
        let start = (Int(bitPattern: mapping) + length - 1) / length * length
        let block = UnsafeMutableRawPointer(bitPattern: start)!
        if block > mapping { munmap(mapping, block - mapping) }
        let end = Int(bitPattern: mapping) + 2 * length
        if start + length < end { munmap(block + length, end - start - length) }
        madvise(block, length, MADV_HUGEPAGE)
        return block
    }
}
