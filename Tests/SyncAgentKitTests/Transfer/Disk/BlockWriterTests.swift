import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``BlockWriter`` on real files: whatever the sizes of the pieces and the mode (through the
/// page cache or direct, with its writer thread), the file ends up holding exactly the bytes.
struct BlockWriterTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "block-writer")
    }

    /// Opens `name` for writing at `offset`, as ``PartFile`` does.
    func open(_ name: String, at offset: Int64 = 0) -> Int32 {
        let descriptor = Glibc.open(folder.appending(name), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        lseek(descriptor, off_t(offset), SEEK_SET)
        return descriptor
    }

    /// Appends `data` in pieces of the given sizes, in turn, like curl's body callback.
    func append(_ data: Data, to writer: BlockWriter, pieces: [Int]) throws {
        try data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            var start = 0
            var piece = 0
            while start < all.count {
                let end = min(all.count, start + pieces[piece % pieces.count])
                try writer.append(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
                piece += 1
            }
        }
    }

    func contents(_ name: String) -> Data {
        FileManager.default.contents(atPath: folder.appending(name)) ?? Data()
    }

    @Test(arguments: [0, 1, 1_000, Int(BlockWriter.directThreshold) - 1])
    func aFileBelowTheDirectThresholdIsWrittenWhole(size: Int) throws {
        let data = randomData(size)
        let descriptor = open("small.bin")
        defer { close(descriptor) }
        let writer = BlockWriter(descriptor: descriptor, path: "small.bin", offset: 0, expectedLength: Int64(size))
        try append(data, to: writer, pieces: [16_384, 7, 4_096])
        try writer.flush()
        #expect(contents("small.bin") == data)
    }

    /// Just over the threshold: one direct write at the end; over a block: through the thread.
    @Test(arguments: [BlockWriter.directThreshold, BlockWriter.directThreshold + 12_345, Int64(3 << 20), Int64(9 << 20) + 12_345])
    func aBigFileGoesDirectAndEndsWithItsTail(size: Int64) throws {
        let data = randomData(Int(size))
        let descriptor = open("big.bin")
        defer { close(descriptor) }
        let writer = BlockWriter(descriptor: descriptor, path: "big.bin", offset: 0, expectedLength: size)
        // More blocks than the writer keeps in memory: blocks come back from the thread.
        try append(data, to: writer, pieces: [16_384, 16_384, 1_000])
        try writer.flush()
        #expect(contents("big.bin") == data)
    }

    @Test func aFlushHalfWayLeavesEveryByteAppendedSoFar() throws {
        let data = randomData(3_000_000)
        let descriptor = open("kept.bin")
        defer { close(descriptor) }
        let writer = BlockWriter(descriptor: descriptor, path: "kept.bin", offset: 0, expectedLength: 20_000_000)
        try append(data, to: writer, pieces: [16_384])
        try writer.flush()
        #expect(contents("kept.bin") == data)
    }

    @Test func aResumeFromAnOddOffsetContinuesAfterThePrefix() throws {
        let prefix = randomData(10_001)
        try prefix.write(to: URL(fileURLWithPath: folder.appending("resumed.bin")))
        let rest = randomData(9_000_000)
        let descriptor = open("resumed.bin", at: Int64(prefix.count))
        defer { close(descriptor) }
        let writer = BlockWriter(descriptor: descriptor, path: "resumed.bin", offset: Int64(prefix.count), expectedLength: Int64(prefix.count + rest.count))
        try append(rest, to: writer, pieces: [16_384])
        try writer.flush()
        #expect(contents("resumed.bin") == prefix + rest)
    }

    @Test func aFailedWriteIsReportedWithThePath() throws {
        let descriptor = Glibc.open(folder.appending("readonly.bin"), O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let writer = BlockWriter(descriptor: descriptor, path: "readonly.bin", offset: 0, expectedLength: 1_000)
        let data = randomData(1_000)
        let failure = #expect(throws: TransferFailure.self) {
            try append(data, to: writer, pieces: [100])
            try writer.flush()
        }
        #expect(failure?.code == .disk)
        #expect(failure?.message.hasPrefix("cannot write readonly.bin") == true)
    }
}
