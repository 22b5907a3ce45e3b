/// Where a statement keeps the bytes of the text parameters it binds, so that SQLite can read
/// them where they are (`SQLITE_STATIC`) instead of copying each one: Debian builds SQLite
/// without lookaside memory, so every copy is a `malloc` and later a `free`, each through the
/// lock of SQLite's memory statistics — some 650 instructions per text, against a `memcpy`
/// into memory reused row after row here.
///
/// SQLite may read a bound text until its parameter is bound again, cleared, or the statement
/// finalized. So bytes handed out stay allocated until ``reclaim()``, which the statement
/// calls only after clearing its parameters, and until the arena itself goes, after the
/// statement is finalized. ``rewind()`` lets the next row's texts overwrite the last row's,
/// which its binds replace before SQLite reads them again.
final class SQLiteTextArena {
    /// Every block handed out since the last ``reclaim()``; new texts go into the last one.
    ///
    /// Unchecked for exclusive access: only this class's own methods touch it, none of them
    /// while another runs, and the dynamic check cost more than the copy of a path (a batch
    /// stores 50,000 texts).
    @exclusivity(unchecked) private var blocks: [UnsafeMutableRawBufferPointer] = []
    /// How many bytes of the last block the current row uses.
    @exclusivity(unchecked) private var used = 0

    /// The smallest block: a row of a few paths and URLs fits, so one block serves every row.
    private static let blockSize = 4096

    /// The largest block kept when reclaiming: a one-off long text (a list of 10,000 paths)
    /// does not stay in memory for as long as the statement is cached.
    private static let largestKeptBlock = 16 * 1024

    deinit {
        for block in blocks { block.deallocate() }
    }

    /// Copies the UTF-8 bytes of `text` into the arena and returns where they are; valid
    /// until ``reclaim()``, and never `nil`-based, even for an empty text (a `nil` pointer
    /// would bind `NULL`).
    func store(_ text: String) -> UnsafeRawBufferPointer {
        var text = text
        return text.withUTF8 { bytes in
            let destination = reserve(bytes.count)
            destination.copyMemory(from: UnsafeRawBufferPointer(bytes))
            return UnsafeRawBufferPointer(destination)
        }
    }

    /// Starts a new row in the last block.
    func rewind() {
        used = 0
    }

    /// Frees the blocks no row needs any more: all but the last, and that one too if it is
    /// large. Only while no parameter points into them (after `sqlite3_clear_bindings`).
    func reclaim() {
        guard let last = blocks.last else { return }
        for block in blocks.dropLast() { block.deallocate() }
        if last.count > Self.largestKeptBlock {
            last.deallocate()
            blocks = []
        } else {
            blocks = [last]
        }
        used = 0
    }

    /// `count` bytes of room: after the last row's texts in the last block, else at the start
    /// of a new block (the old one stays allocated: texts bound from it may still be read).
    private func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if let last = blocks.last, last.count - used >= count {
            defer { used += count }
            return UnsafeMutableRawBufferPointer(rebasing: last[used..<(used + count)])
        }
        let size = max(Self.blockSize, 2 * (blocks.last?.count ?? 0), count)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        blocks.append(block)
        used = count
        return UnsafeMutableRawBufferPointer(rebasing: block[0..<count])
    }
}

@available(*, unavailable, message: "an SQLite statement's texts are used from one thread only")
extension SQLiteTextArena: Sendable {}
