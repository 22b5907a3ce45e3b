import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``DirectIOBlocks`` and the ``BlockWriter``s that share it, on real files: a writer alone
/// keeps up to four blocks for a long file, writers together stay under the budget
/// and fill a quarter of each block, and every block comes back.
struct DirectIOBlocksTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "direct-io-blocks")
    }

    /// A writer of a big file of `name` on `pool`, as ``PartFile`` makes one.
    func writer(_ name: String, length: Int, pool: DirectIOBlocks) -> (BlockWriter, Int32) {
        let descriptor = Glibc.open(folder.appending(name), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        return (BlockWriter(descriptor: descriptor, path: name, offset: 0, expectedLength: Int64(length), pool: pool), descriptor)
    }

    func append(_ data: Data, to writer: BlockWriter) throws {
        try data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + 16_384)
                try writer.append(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    @Test func theShareShrinksAsWritersJoinButNeverBelowTwo() {
        let pool = DirectIOBlocks(budget: 8)
        pool.join()
        #expect(pool.share == 4)
        pool.join()
        #expect(pool.share == 4)
        pool.join()
        #expect(pool.share == 2)
        for _ in 0..<5 { pool.join() }
        #expect(pool.share == 2)
    }

    @Test func aLongFileAloneKeepsFourLongBlocksAndGivesThemAllBack() throws {
        let pool = DirectIOBlocks(longFileLength: 9 << 20)
        let data = randomData((9 << 20) + 5_000)
        do {
            let (writer, descriptor) = writer("alone.bin", length: data.count, pool: pool)
            defer { close(descriptor) }
            try append(data, to: writer)
            #expect(pool.inUse == DirectIOBlocks.mostPerWriter, "the file system here must accept O_DIRECT")
            #expect(pool.longCount == DirectIOBlocks.mostPerWriter)
            #expect(writer.fillingLength == DirectIOBlocks.longBlockLength)
            try writer.flush()
        }
        #expect(pool.inUse == 0)
        #expect(pool.longCount == 0)
        #expect(pool.spareCount == 0, "the ordinary blocks it began with are not kept beside long ones")
        #expect(FileManager.default.contents(atPath: folder.appending("alone.bin")) == data)
    }

    /// A long block sits on a boundary of its own length, where the kernel can give it a huge
    /// page, and is unmapped when given back rather than kept for another writer.
    @Test func aLongBlockIsAlignedToItsLengthAndUnmappedWhenGivenBack() {
        let pool = DirectIOBlocks()
        let block = UnsafeMutableRawBufferPointer(start: pool.take(holding: DirectIOBlocks.longBlockLength), count: DirectIOBlocks.longBlockLength)
        #expect(Int(bitPattern: block.baseAddress) % DirectIOBlocks.longBlockLength == 0)
        block.initializeMemory(as: UInt8.self, repeating: 1)
        #expect(pool.longCount == 1)
        pool.giveBack(block)
        #expect(pool.longCount == 0 && pool.spareCount == 0 && pool.inUse == 0)
        var page: UInt8 = 0
        #expect(mincore(block.baseAddress, 4096, &page) == -1 && errno == ENOMEM, "no longer mapped")
    }

    @Test func onlyALongDownloadGoesOnToLongBlocks() {
        let pool = DirectIOBlocks(longFileLength: 64 << 20)
        pool.join()
        #expect(pool.nextFill(written: 1 << 20, remaining: 64 << 20) == DirectIOBlocks.longBlockLength)
        #expect(pool.nextFill(written: 1 << 20, remaining: (64 << 20) - 1) == DirectIOBlocks.blockLength)
        #expect(pool.nextFill(written: 1 << 20, remaining: nil) == DirectIOBlocks.blockLength)
        #expect(pool.nextFill(written: (1 << 20) - 1, remaining: 64 << 20) == DirectIOBlocks.sharedFillLength)
        pool.join()
        #expect(pool.nextFill(written: 1 << 20, remaining: 64 << 20) == DirectIOBlocks.sharedFillLength)
    }

    @Test func aShorterFileAloneKeepsTwoBlocks() throws {
        let pool = DirectIOBlocks(longFileLength: 9 << 20)
        let data = randomData((9 << 20) - 1)
        let (writer, descriptor) = writer("shorter.bin", length: data.count, pool: pool)
        defer { close(descriptor) }
        try append(data, to: writer)
        #expect(pool.inUse == DirectIOBlocks.fewestPerWriter)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("shorter.bin")) == data)
    }

    @Test func aWriterFillsWholeBlocksOnlyOnceItHasWrittenOneAlone() {
        let pool = DirectIOBlocks()
        pool.join()
        #expect(pool.nextFill(written: 0) == 256 << 10)
        #expect(pool.nextFill(written: (1 << 20) - 1) == 256 << 10)
        #expect(pool.nextFill(written: 1 << 20) == 1 << 20)
        pool.join()
        #expect(pool.nextFill(written: 1 << 20) == 256 << 10)
        pool.leave()
        #expect(pool.nextFill(written: 1 << 20) == 1 << 20)
    }

    /// A download whose response has not begun may yet write beside this one: the writer
    /// keeps to quarter blocks until it knows.
    @Test func aWriterFillsWholeBlocksOnlyWhenNoDownloadAwaitsItsHead() {
        let pool = DirectIOBlocks()
        pool.join()
        pool.awaitHead()
        pool.awaitHead()
        #expect(pool.nextFill(written: 1 << 20) == 256 << 10)
        pool.headArrived()
        #expect(pool.nextFill(written: 1 << 20) == 256 << 10)
        pool.headArrived()
        #expect(pool.nextFill(written: 1 << 20) == 1 << 20)
    }

    /// Files that start together see their responses within moments: a writer that has
    /// written a while alone stops waiting for others' (small files keep some always waiting).
    @Test func aWriterStopsWaitingForOthersHeadsOnceItHasWrittenAWhile() {
        let pool = DirectIOBlocks(longFileLength: 64 << 20)
        pool.join()
        pool.awaitHead()
        #expect(pool.nextFill(written: DirectIOBlocks.headWaitLength - 1, remaining: 1 << 30) == DirectIOBlocks.sharedFillLength)
        #expect(pool.nextFill(written: DirectIOBlocks.headWaitLength, remaining: 1 << 30) == DirectIOBlocks.longBlockLength)
        pool.join()
        #expect(pool.nextFill(written: DirectIOBlocks.headWaitLength, remaining: 1 << 30) == DirectIOBlocks.sharedFillLength, "another writing")
    }

    @Test func aWholeBlockGivenBackKeepsOnlyAQuarterOfItsPagesInMemory() {
        let pool = DirectIOBlocks()
        let block = UnsafeMutableRawBufferPointer(start: pool.take(), count: DirectIOBlocks.blockLength)
        block.initializeMemory(as: UInt8.self, repeating: 1)
        #expect(residentPages(of: block) == DirectIOBlocks.blockLength / 4096)
        pool.giveBack(block)
        #expect(residentPages(of: block) == DirectIOBlocks.sharedFillLength / 4096)
    }

    /// How many of the pages of `block` are in memory (mincore(2)).
    func residentPages(of block: UnsafeMutableRawBufferPointer) -> Int {
        var pages = [UInt8](repeating: 0, count: block.count / 4096)
        #expect(mincore(block.baseAddress, block.count, &pages) == 0)
        return pages.filter { $0 & 1 == 1 }.count
    }

    @Test func aWriterGoingOnToWholeBlocksUnmapsTheSpareOnes() throws {
        let pool = DirectIOBlocks()
        // Blocks other files filled and gave back: two more than this writer takes.
        let others = (0..<4).map { _ in pool.take() }
        for block in others { pool.giveBack(UnsafeMutableRawBufferPointer(start: block, count: DirectIOBlocks.sharedFillLength)) }
        let data = randomData(3 << 20)
        let (writer, descriptor) = writer("after-others.bin", length: data.count, pool: pool)
        defer { close(descriptor) }
        try append(data, to: writer)
        #expect(writer.fillingLength == DirectIOBlocks.blockLength)
        #expect(pool.spareCount == 0)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("after-others.bin")) == data)
    }

    @Test func aWriterAmongOthersKeepsItsShare() throws {
        let pool = DirectIOBlocks(budget: 8)
        for _ in 0..<4 { pool.join() }  // four other files writing at the same time
        let data = randomData(9 << 20)
        let (writer, descriptor) = writer("shared.bin", length: data.count, pool: pool)
        defer { close(descriptor) }
        try append(data, to: writer)
        #expect(pool.inUse == 2)
        #expect(writer.fillingLength == DirectIOBlocks.sharedFillLength)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("shared.bin")) == data)
    }

    @Test func aWriterGivesBackWhatIsOverItsShareWhenOthersJoin() throws {
        let pool = DirectIOBlocks(budget: 8, longFileLength: 9 << 20)
        // A mebibyte in quarter blocks, then four long blocks: the first part ends on a block.
        let first = randomData(9 << 20), second = randomData(3 << 20)
        let (writer, descriptor) = writer("joined.bin", length: first.count + second.count, pool: pool)
        defer { close(descriptor) }
        try append(first, to: writer)
        #expect(pool.inUse == 4)
        #expect(pool.longCount == 4)
        try writer.flush()  // every block handed over is written by now
        for _ in 0..<3 { pool.join() }
        try append(second, to: writer)
        #expect(pool.inUse == 2)
        #expect(pool.longCount == 0, "long blocks are for a writer alone")
        #expect(writer.fillingLength == DirectIOBlocks.sharedFillLength)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("joined.bin")) == first + second)
    }

    /// A file that starts alone, is joined by others and is alone again: whole blocks, then
    /// quarter blocks, then whole ones, and the file holds every byte in its place.
    @Test func aWriterChangesItsFillAsOthersComeAndGoAndKeepsEveryByte() throws {
        let pool = DirectIOBlocks()
        let parts = [randomData(3 << 20), randomData((3 << 20) + 12_345), randomData((2 << 20) + 777)]
        let (writer, descriptor) = writer("changing.bin", length: parts.map(\.count).reduce(0, +), pool: pool)
        defer { close(descriptor) }
        try append(parts[0], to: writer)
        #expect(writer.fillingLength == DirectIOBlocks.blockLength)
        for _ in 0..<3 { pool.join() }
        try append(parts[1], to: writer)
        #expect(writer.fillingLength == DirectIOBlocks.sharedFillLength)
        for _ in 0..<3 { pool.leave() }
        try append(parts[2], to: writer)
        #expect(writer.fillingLength == DirectIOBlocks.blockLength)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("changing.bin")) == parts[0] + parts[1] + parts[2])
    }
}
