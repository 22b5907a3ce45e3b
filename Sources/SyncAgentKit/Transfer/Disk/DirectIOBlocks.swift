import Glibc

/// The aligned blocks every direct-I/O ``BlockWriter`` of one engine fills and hands to its
/// ``BlockWriteThread``, under one cap for them all.
///
/// The writer of a long file (``longFileLength``) alone may keep ``mostPerWriter`` blocks
/// (filling, queued, being written), so it overlaps receiving and writing as much as it
/// needs; any other keeps two. When several write at once, they share ``budget`` blocks, and
/// each keeps at least two — one filling while the other is written — so none writes on the
/// engine's thread. Writers fill only the first ``sharedFillLength`` bytes of each block, as
/// long as others write too: the disk is what bounds them then, their writes overlap on the
/// device, and bigger blocks or more of them would only wait longer for it. A writer that has
/// written a mebibyte with no other writing fills whole blocks: written one at a time, a
/// quarter block keeps the device less busy (a 29 MB file alone took 77 ms in quarter blocks,
/// 56 ms in whole ones). Not sooner: files that start together join one by one, and the first
/// would fill whole blocks in the moment before the others join, and keep their pages.
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
    /// The length of every block: one write(2) per mebibyte keeps the device busy and the
    /// memory small.
    static let blockLength = 1 << 20
    /// The most blocks the writer of a long file keeps when it writes alone.
    static let mostPerWriter = 4
    /// The fewest blocks one writer keeps however many write: one filling, one being written.
    static let fewestPerWriter = 2
    /// The bytes of each block a writer fills while others write too, and before it has
    /// written a block's worth alone: a quarter of a block.
    static let sharedFillLength = 256 << 10

    /// Blocks the writers of this engine share when several write at once.
    let budget: Int
    /// A writer keeps more than the fewest blocks only for a download at least this long,
    /// where a few blocks queued absorb the moments when receiving or writing is briefly
    /// slower. A shorter file is written in a few tens of milliseconds either way.
    let longFileLength: Int64
    /// Blocks given back and not unmapped yet.
    private var spare: [UnsafeMutableRawPointer] = []
    /// Writers between ``join()`` and ``leave()``.
    private var writers = 0
    /// Blocks taken and not given back.
    private(set) var inUse = 0

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

    /// How much of its next block a writer that has handed `written` bytes to its thread
    /// fills: all of it once it has written a block's worth while no other writes, otherwise
    /// ``sharedFillLength``. A writer alone that goes on to whole blocks needs no spare ones:
    /// they are unmapped then.
    func nextFill(written: Int64) -> Int {
        guard writers <= 1, written >= Self.blockLength else { return Self.sharedFillLength }
        releaseSpareBlocks()
        return Self.blockLength
    }

    /// The blocks the writer of a file with `remaining` bytes still to come may keep now:
    /// ``share`` for a long download (at least ``longFileLength``), the fewest for a shorter
    /// one or one of no stated length. A few files that start together then never each take
    /// several whole blocks in the moment before the others join.
    func share(remaining: Int64?) -> Int {
        (remaining ?? 0) >= longFileLength ? share : Self.fewestPerWriter
    }

    /// Counts a writer in; it takes its blocks with ``take()``.
    func join() {
        writers += 1
    }

    /// Counts a writer out, once it has given back every block it took.
    func leave() {
        writers -= 1
    }

    /// Blocks given back and still mapped.
    var spareCount: Int { spare.count }

    /// Unmaps the blocks no writer holds.
    func releaseSpareBlocks() {
        for block in spare { munmap(block, Self.blockLength) }
        spare = []
    }

    /// A block of ``blockLength`` bytes aligned for direct I/O: a spare one, or a new mapping.
    /// Only a process out of memory gets none.
    func take() -> UnsafeMutableRawPointer {
        inUse += 1
        if let block = spare.popLast() { return block }
        let block = mmap(nil, Self.blockLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let block, block != MAP_FAILED else { fatalError("cannot map a block for direct I/O: \(systemReason())") }
        return block
    }

    /// Takes back a block from ``take()``, filled as far as `block.count`, to lend again with
    /// no more than a quarter of its pages in memory.
    func giveBack(_ block: UnsafeMutableRawBufferPointer) {
        inUse -= 1
        Self.releasePages(of: block, past: Self.sharedFillLength)
        spare.append(block.baseAddress!)
    }

    /// Gives the pages of `block` (filled as far as its `count`) past its first `length` bytes
    /// back to the kernel: a block filled less from now on would otherwise keep them.
    static func releasePages(of block: UnsafeMutableRawBufferPointer, past length: Int) {
        guard block.count > length else { return }
        // Both ends are multiples of the alignment, and so of the page size.
        madvise(block.baseAddress! + length, block.count - length, MADV_DONTNEED)
    }
}
