import Foundation
import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// When a folder's listing answers "nothing there" for a batch's files, and when it does not
/// (see ``DestinationListings`` for why a stale answer loses nothing).
final class DestinationListingsTests {
    let folder: TemporaryDirectory
    var clock = ContinuousClock.now
    var listings: DestinationListings!

    init() throws {
        folder = try TemporaryDirectory(prefix: "listings")
        listings = DestinationListings(now: { [unowned self] in clock })
    }

    deinit { folder.remove() }

    func paths(_ count: Int, in sub: String = "") -> [String] {
        (0..<count).map { folder.appending(sub + "f\($0).bin") }
    }

    func make(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data())
    }

    let nothing = DestinationListings.Absence(file: true, partial: true)

    /// A listing of a folder of planned files whose first name was asked about, and whose
    /// second was made by someone else after the read; then the listing grows older than its
    /// trust. Returns the planned files.
    func agedListingWithTheSecondFileMade() -> [String] {
        let planned = paths(DestinationListings.fewestFiles)
        listings.expect(planned)
        #expect(listings.absence(of: planned[0]) == nothing)
        make(planned[1])
        clock += DestinationListings.longestTrust + .milliseconds(1)
        return planned
    }

    @Test func aFolderOfManyPlannedFilesAnswersFromOneRead() {
        let planned = paths(DestinationListings.fewestFiles)
        make(planned[1])
        make(PartFile.path(for: planned[2]))
        listings.expect(planned)
        #expect(listings.absence(of: planned[0]) == nothing)
        #expect(listings.absence(of: planned[1]) == DestinationListings.Absence(file: false, partial: true))
        #expect(listings.absence(of: planned[2]) == DestinationListings.Absence(file: true, partial: false))
    }

    @Test func aFolderOfFewPlannedFilesIsLookedUpNameByName() {
        let planned = paths(DestinationListings.fewestFiles - 1)
        listings.expect(planned + [folder.appending("other/x.bin")])
        #expect(listings.absence(of: planned[0]) == DestinationListings.Absence())
    }

    /// The transfer that follows a question may make the file and its partial: a second
    /// question about the same name is answered by the disk.
    @Test func aNameIsAnsweredOnce() {
        let planned = paths(DestinationListings.fewestFiles)
        listings.expect(planned)
        #expect(listings.absence(of: planned[0]) == nothing)
        #expect(listings.absence(of: planned[0]) == DestinationListings.Absence())
    }

    /// What another program makes is seen within ``DestinationListings/longestTrust``.
    @Test func aListingIsReadAgainOnceItIsOlderThanItsTrust() {
        let planned = agedListingWithTheSecondFileMade()
        #expect(listings.absence(of: planned[1]).file == false)
        #expect(listings.absence(of: planned[2]) == nothing)
    }

    /// A name asked about before a listing was read again is still not answered: its
    /// transfer may have made it after that read.
    @Test func aNameAskedAboutStaysAskedAboutWhenTheFolderIsReadAgain() {
        let planned = agedListingWithTheSecondFileMade()
        #expect(listings.absence(of: planned[2]) == nothing)
        #expect(listings.absence(of: planned[0]) == DestinationListings.Absence())
    }

    /// A listing older than its trust is kept while the folder's modification time says no
    /// name was added, removed or renamed since; here that time is put back by hand to show
    /// the listing goes by it.
    @Test func aListingOfAnUnchangedFolderIsKept() {
        let planned = paths(DestinationListings.fewestFiles)
        var longAgo = [timespec(tv_sec: 784_887_151, tv_nsec: 0), timespec(tv_sec: 784_887_151, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder.path, &longAgo, 0) == 0)
        listings.expect(planned)
        #expect(listings.absence(of: planned[0]) == nothing)
        make(planned[1])
        #expect(utimensat(AT_FDCWD, folder.path, &longAgo, 0) == 0)
        clock += DestinationListings.longestTrust + .milliseconds(1)
        #expect(listings.absence(of: planned[1]) == nothing)
        make(planned[2])
        clock += DestinationListings.longestTrust + .milliseconds(1)
        #expect(listings.absence(of: planned[2]).file == false)
    }

    /// A big folder whose listing answered few questions in its second is not read again:
    /// its files are looked up one by one.
    @Test func aListingThatAnsweredLittleIsNotReadAgain() {
        let planned = paths(DestinationListings.fewestFiles)
        for index in 0..<200 { make(folder.appending("other\(index).bin")) }
        listings.expect(planned)
        #expect(listings.absence(of: planned[0]) == nothing)
        make(planned[1])
        clock += DestinationListings.longestTrust + .milliseconds(1)
        #expect(listings.absence(of: planned[2]) == DestinationListings.Absence())
        #expect(listings.absence(of: planned[3]) == DestinationListings.Absence())
    }

    /// Each folder has its own listing; a file of one is never answered from another's.
    @Test func eachFolderHasItsOwnListing() throws {
        let first = paths(DestinationListings.fewestFiles, in: "a/")
        let second = paths(DestinationListings.fewestFiles, in: "b/")
        try FileManager.default.createDirectory(atPath: folder.appending("b"), withIntermediateDirectories: true)
        make(second[0])
        listings.expect(first + second)
        #expect(listings.absence(of: first[0]) == nothing)
        #expect(listings.absence(of: second[0]).file == false)
        #expect(listings.absence(of: first[1]) == nothing)
    }

    /// Two names Swift holds equal (canonically equivalent) are two folders on Linux.
    @Test func foldersAreTheirBytesNotTheirCanonicalForm() throws {
        let composed = folder.appending("caf\u{E9}/")
        let decomposed = folder.appending("cafe\u{301}/")
        try FileManager.default.createDirectory(atPath: decomposed, withIntermediateDirectories: true)
        make(decomposed + "f0.bin")
        listings.expect((0..<DestinationListings.fewestFiles).map { composed + "f\($0).bin" })
        #expect(listings.absence(of: composed + "f1.bin") == nothing)
        #expect(listings.absence(of: decomposed + "f0.bin").file == false)
    }
}
