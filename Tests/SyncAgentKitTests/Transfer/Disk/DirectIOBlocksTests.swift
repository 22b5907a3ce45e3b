import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``DirectIOBlocks`` and the ``BlockWriter``s that share it, on real files: a writer alone
/// keeps up to four blocks, writers together stay under the budget, and every block comes back.
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

    @Test func aWriterAloneKeepsFourBlocksAndGivesThemAllBack() throws {
        let pool = DirectIOBlocks()
        let data = randomData(9 << 20)
        do {
            let (writer, descriptor) = writer("alone.bin", length: data.count, pool: pool)
            defer { close(descriptor) }
            try append(data, to: writer)
            #expect(pool.inUse == DirectIOBlocks.mostPerWriter, "the file system here must accept O_DIRECT")
            try writer.flush()
        }
        #expect(pool.inUse == 0)
        #expect(FileManager.default.contents(atPath: folder.appending("alone.bin")) == data)
    }

    @Test func aWriterAmongOthersKeepsItsShare() throws {
        let pool = DirectIOBlocks(budget: 8)
        for _ in 0..<4 { pool.join() }  // four other files writing at the same time
        let data = randomData(9 << 20)
        let (writer, descriptor) = writer("shared.bin", length: data.count, pool: pool)
        defer { close(descriptor) }
        try append(data, to: writer)
        #expect(pool.inUse == 2)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("shared.bin")) == data)
    }

    @Test func aWriterGivesBackWhatIsOverItsShareWhenOthersJoin() throws {
        let pool = DirectIOBlocks(budget: 8)
        let first = randomData(6 << 20), second = randomData(3 << 20)
        let (writer, descriptor) = writer("joined.bin", length: first.count + second.count, pool: pool)
        defer { close(descriptor) }
        try append(first, to: writer)
        #expect(pool.inUse == 4)
        try writer.flush()  // every block handed over is written by now
        for _ in 0..<3 { pool.join() }
        try append(second, to: writer)
        #expect(pool.inUse == 2)
        try writer.flush()
        #expect(FileManager.default.contents(atPath: folder.appending("joined.bin")) == first + second)
    }
}
