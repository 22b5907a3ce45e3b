import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``BlockWriteThread``: blocks written in order, handed back, failures reported.
struct BlockWriteThreadTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "block-thread")
    }

    func block(filledWith byte: UInt8, count: Int = 4096) -> UnsafeMutableRawBufferPointer {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: byte)
        return block
    }

    @Test func writesBlocksInOrderAndHandsThemBack() throws {
        let path = folder.appending("ordered.bin")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let thread = BlockWriteThread(descriptor: descriptor)
        let blocks = (1...5).map { block(filledWith: UInt8($0)) }
        for block in blocks { #expect(thread.write(block) == nil) }
        #expect(thread.waitUntilWritten() == nil)
        var reclaimed: [UnsafeMutableRawBufferPointer] = []
        for _ in blocks {
            if case .success(let block) = thread.reclaim() { reclaimed.append(block) }
        }
        #expect(Set(reclaimed.map(\.baseAddress)) == Set(blocks.map(\.baseAddress)))
        #expect(thread.finish().isEmpty)
        let written = Array(FileManager.default.contents(atPath: path) ?? Data())
        #expect(written == (1...5).flatMap { [UInt8](repeating: UInt8($0), count: 4096) })
        for block in blocks { block.deallocate() }
    }

    /// Oldest first, whether waited for or not: a writer's blocks take turns.
    @Test func writtenBlocksComeBackOldestFirst() throws {
        let descriptor = open(folder.appending("turns.bin"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let thread = BlockWriteThread(descriptor: descriptor)
        let blocks = (1...4).map { block(filledWith: UInt8($0)) }
        for block in blocks { #expect(thread.write(block) == nil) }
        #expect(thread.waitUntilWritten() == nil)
        var reclaimed: [UnsafeMutableRawPointer?] = []
        if case .success(let block) = thread.reclaim() { reclaimed.append(block.baseAddress) }
        reclaimed.append(thread.reclaimIfWritten()?.baseAddress)
        if case .success(let block) = thread.reclaim() { reclaimed.append(block.baseAddress) }
        reclaimed.append(thread.reclaimIfWritten()?.baseAddress)
        #expect(reclaimed == blocks.map(\.baseAddress))
        #expect(thread.finish().isEmpty)
        for block in blocks { block.deallocate() }
    }

    @Test func aFailedWriteIsReportedAndTheBlocksComeBack() throws {
        let descriptor = open(folder.appending("readonly.bin"), O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        defer { close(descriptor) }
        let thread = BlockWriteThread(descriptor: descriptor)
        let first = block(filledWith: 1)
        #expect(thread.write(first) == nil)
        #expect(thread.waitUntilWritten() == EBADF)
        let second = block(filledWith: 2)
        #expect(thread.write(second) == EBADF)
        if case .failure(let error) = thread.reclaim() {
            #expect(error.code == EBADF)
        } else {
            Issue.record("a failed write must be reported by reclaim()")
        }
        let returned = thread.finish()
        #expect(returned.map(\.baseAddress) == [first.baseAddress])
        first.deallocate()
        second.deallocate()
    }
}
