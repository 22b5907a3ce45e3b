import Foundation
import Testing
@testable import SyncAgentKit

/// The names ``PartFile`` gives partials: always of the form the manifest refuses for its
/// entries (``StagingName``), so no entry's file can be another entry's partial.
struct PartFileTests {
    @Test(arguments: ["x.bin", "report 2026.pdf", ".hidden", String(repeating: "a", count: 249)])
    func aPartialNameIsOneNoEntryCanHave(name: String) {
        let partial = splitPath(PartFile.path(for: "/data/" + name)).name
        #expect(partial == "." + name + ".part")
        #expect(StagingName.isReserved(partial))
    }

    /// A name too long for "." and ".part" gets a shortened partial name, which must not be
    /// the partial of some other, shorter name an entry could have.
    @Test(arguments: [String(repeating: "a", count: 250), String(repeating: "é", count: 127)])
    func aLongNamesPartialIsNotThePartialOfAnyEntrysName(name: String) {
        let partial = splitPath(PartFile.path(for: "/data/" + name)).name
        #expect(partial.utf8.count <= RelativePath.maximumNameLength)
        #expect(StagingName.isReserved(partial))
        // The name whose ordinary partial this would be is itself a refused one.
        let owner = String(partial.dropFirst().dropLast(StagingName.suffix.count))
        #expect(StagingName.isReserved(owner))
        #expect(PartFile.path(for: "/data/" + name) == PartFile.path(for: "/data/" + name), "the same on every run")
    }

    /// The partial's path is the destination's folder, as ``splitPath(_:)`` names it, with the
    /// partial name: also in the root folder, the current one, and for names near the limit.
    @Test(arguments: [("/data/x.bin", "/data/.x.bin.part"), ("x.bin", "./.x.bin.part"), ("/x.bin", "//.x.bin.part"),
                      ("/a/b/é ü.bin", "/a/b/.é ü.bin.part"), ("/data/", "/data/..part"),
                      ("/d/" + String(repeating: "a", count: 249), "/d/." + String(repeating: "a", count: 249) + ".part")])
    func aPartialLivesBesideItsFile(destination: String, partial: String) {
        #expect(PartFile.path(for: destination) == partial)
    }

    @Test func stagingNamesAreCaseBlind() {
        #expect(StagingName.isReserved(".X.BIN.PART"))
        #expect(StagingName.isReserved(".x.bin.Part"))
        #expect(!StagingName.isReserved("x.bin.part"))
        #expect(!StagingName.isReserved(".part"))
        #expect(!StagingName.isReserved(".x.bin.parts"))
    }
}
