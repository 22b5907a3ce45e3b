import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// ``DescriptorTable``: the table of descriptors grown ahead of the files a fetch holds open.
struct DescriptorTableTests {
    /// Grown to hold more than it does, the table holds it at once.
    @Test func growingMakesRoomNow() throws {
        let before = try #require(DescriptorTable.capacity())
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let wanted = min(before * 2, Int(clamping: limit.rlim_cur))
        try #require(wanted > before, "the soft limit leaves no room to grow")
        #expect(DescriptorTable.grow(toHold: wanted))
        #expect(try #require(DescriptorTable.capacity()) >= wanted)
    }

    /// A download's file starts the growth, to room for 1,024 descriptors (or the soft limit).
    @Test func aDownloadsFileGrowsTheTable() throws {
        let folder = try TemporaryDirectory(prefix: "descriptor-table")
        let part = try PartFile(destination: folder.appending("f.bin"), root: folder.path, keepingFirst: 0, expectedLength: 5)
        part.discard()
        #expect(DescriptorTable.waitUntilGrown(), "started by the file")
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(try #require(DescriptorTable.capacity()) >= min(DescriptorTable.size, Int(clamping: limit.rlim_cur)))
    }
}
