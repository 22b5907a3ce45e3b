import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// What one read of a folder says of the names in it.
final class FolderListingTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "listing")
    }

    deinit { folder.remove() }

    func make(_ name: String) {
        _ = FileManager.default.createFile(atPath: folder.appending(name), contents: Data())
    }

    @Test func aNameInTheFolderMayBeThereAndOneNotInItIsNot() throws {
        make("a.pdf")
        make(".b.pdf.part")
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect(listing.mayHave("a.pdf".utf8[...]))
        #expect(!listing.mayHave("b.pdf".utf8[...]))
        #expect(!listing.mayHave("A.pdf".utf8[...]))
        #expect(listing.mayHavePartial(of: "b.pdf".utf8[...]))
        #expect(!listing.mayHavePartial(of: "a.pdf".utf8[...]))
    }

    /// Every name of a big folder is kept, past the size its first guess allowed for.
    @Test func everyNameOfAFolderOfThousandsIsThere() throws {
        for index in 0..<3_000 { make("f\(index).bin") }
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect((0..<3_000).allSatisfy { listing.mayHave("f\($0).bin".utf8[...]) })
        #expect((3_000..<6_000).filter { listing.mayHave("f\($0).bin".utf8[...]) }.count < 3)
        for index in 6_000..<9_000 { listing.noteMayHave("f\(index).bin".utf8[...]) }
        #expect((6_000..<9_000).allSatisfy { listing.mayHave("f\($0).bin".utf8[...]) && listing.mayHavePartial(of: "f\($0).bin".utf8[...]) })
    }

    /// A folder that is not there has nothing in it; whatever is made there is made later.
    @Test func aMissingFolderHoldsNothing() throws {
        let listing = try #require(FolderListing.read(folder.appending("not/there"), at: .now))
        #expect(!listing.mayHave("a.pdf".utf8[...]))
    }

    /// A path that is no folder cannot be listed: its names are looked up one by one.
    @Test func aFileIsNoFolderToList() {
        make("file")
        #expect(FolderListing.read(folder.appending("file"), at: .now) == nil)
    }

    /// The partial of a name too long for ".NAME.part" has another form, never known absent.
    @Test func aLongNamesPartialIsNeverKnownAbsent() throws {
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect(listing.mayHavePartial(of: String(repeating: "a", count: 250).utf8[...]))
        #expect(!listing.mayHavePartial(of: String(repeating: "a", count: 249).utf8[...]))
    }
}
