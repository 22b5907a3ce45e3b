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

    /// Whether look-ups of `name` and of its partial could find something in `listing`.
    func lookUps(of name: String, in listing: FolderListing) -> (file: Bool, partial: Bool) {
        listing.mayHave(FolderListing.Hashes(name.utf8[...]))
    }

    @Test func aNameInTheFolderMayBeThereAndOneNotInItIsNot() throws {
        make("a.pdf")
        make(".b.pdf.part")
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect(lookUps(of: "a.pdf", in: listing).file)
        #expect(!lookUps(of: "b.pdf", in: listing).file)
        #expect(!lookUps(of: "A.pdf", in: listing).file)
        #expect(lookUps(of: "b.pdf", in: listing).partial)
        #expect(!lookUps(of: "a.pdf", in: listing).partial)
    }

    /// Every name of a big folder is kept, past the size its first guess allowed for.
    @Test func everyNameOfAFolderOfThousandsIsThere() throws {
        for index in 0..<3_000 { make("f\(index).bin") }
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect((0..<3_000).allSatisfy { lookUps(of: "f\($0).bin", in: listing).file })
        #expect((3_000..<6_000).filter { lookUps(of: "f\($0).bin", in: listing).file }.count < 3)
        for index in 6_000..<9_000 { listing.noteMayHave(FolderListing.Hashes("f\(index).bin".utf8[...])) }
        #expect((6_000..<9_000).allSatisfy { lookUps(of: "f\($0).bin", in: listing).file && lookUps(of: "f\($0).bin", in: listing).partial })
    }

    /// A folder that is not there has nothing in it; whatever is made there is made later.
    @Test func aMissingFolderHoldsNothing() throws {
        let listing = try #require(FolderListing.read(folder.appending("not/there"), at: .now))
        #expect(!lookUps(of: "a.pdf", in: listing).file)
    }

    /// A path that is no folder cannot be listed: its names are looked up one by one.
    @Test func aFileIsNoFolderToList() {
        make("file")
        #expect(FolderListing.read(folder.appending("file"), at: .now) == nil)
    }

    /// The partial of a name too long for ".NAME.part" has another form, never known absent.
    @Test func aLongNamesPartialIsNeverKnownAbsent() throws {
        let listing = try #require(FolderListing.read(folder.path, at: .now))
        #expect(lookUps(of: String(repeating: "a", count: 250), in: listing).partial)
        #expect(!lookUps(of: String(repeating: "a", count: 249), in: listing).partial)
    }
}
