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

    /// Downloads' files reaching the mark start the growth, to room for 1,024 descriptors (or
    /// the soft limit).
    @Test func downloadsFilesGrowTheTable() throws {
        let folder = try TemporaryDirectory(prefix: "descriptor-table")
        let parts = try (0..<Int(DescriptorTable.growthMark)).map {
            try PartFile(destination: folder.appending("f\($0).bin"), root: folder.path, keepingFirst: 0, expectedLength: 5)
        }
        for part in parts { part.discard() }
        #expect(DescriptorTable.waitUntilGrown(), "started by the files")
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(try #require(DescriptorTable.capacity()) >= min(DescriptorTable.size, Int(clamping: limit.rlim_cur)))
    }
}
