import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// When ``FreeSpaceGuard`` looks at the filesystem of a real partial file: never for a small
/// body, before a long one, and no later than 16 KiB into any other.
struct FreeSpaceGuardTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "free-space")
    }

    /// A real partial file that counts the looks at its filesystem.
    final class CountedLooks: FreeSpaceSource {
        let file: PartFile
        private(set) var looks = 0
        init(_ file: PartFile) { self.file = file }
        var destination: String { file.destination }
        var space: (available: Int64, size: Int64)? {
            looks += 1
            return file.space
        }
    }

    func partial(length: Int64?) throws -> CountedLooks {
        CountedLooks(try PartFile(destination: folder.appending("x.bin"), root: folder.path, keepingFirst: 0, expectedLength: length))
    }

    @Test func aSmallBodyIsWrittenWithoutALook() throws {
        let file = try partial(length: 1024)
        var guardian = try FreeSpaceGuard(file: file, written: 0, remaining: 1024)
        try guardian.check(file: file, written: 0, upcoming: 1024, remaining: 1024)
        #expect(file.looks == 0)
        #expect(guardian.margin == nil)
    }

    @Test func aBodyOfUnknownLengthIsLookedAtOnce16KiBAreWritten() throws {
        let file = try partial(length: nil)
        var guardian = try FreeSpaceGuard(file: file, written: 0, remaining: nil)
        try guardian.check(file: file, written: 0, upcoming: 16 * 1024 - 1, remaining: nil)
        #expect(file.looks == 0)
        try guardian.check(file: file, written: 16 * 1024 - 1, upcoming: 1, remaining: nil)
        #expect(file.looks == 1)
        #expect(guardian.margin != nil)
    }

    @Test func aLongBodyIsLookedAtBeforeItsFirstByte() throws {
        let file = try partial(length: 2 << 20)
        _ = try FreeSpaceGuard(file: file, written: 0, remaining: 2 << 20)
        #expect(file.looks == 1)
    }

    /// A margin larger than the disk: the first look stops the body, whatever its length.
    @Test func theFirstLookStopsABodyThatWouldEatIntoTheMargin() throws {
        let file = try partial(length: nil)
        var guardian = try FreeSpaceGuard(file: file, written: 0, remaining: nil, rule: .bytes(Int64.max / 2))
        try guardian.check(file: file, written: 0, upcoming: 1024, remaining: nil)
        #expect(throws: TransferFailure.self) {
            try guardian.check(file: file, written: 1024, upcoming: 16 * 1024, remaining: nil)
        }
        #expect(file.looks == 1)
    }

    @Test func aSmallBodyWithTheUsersOwnMarginIsLookedAtAhead() throws {
        let file = try partial(length: 1024)
        #expect(throws: TransferFailure.self) {
            _ = try FreeSpaceGuard(file: file, written: 0, remaining: 1024, rule: .bytes(Int64.max / 2))
        }
        #expect(file.looks == 1)
    }
}
