import Testing
@testable import SyncAgentKit

/// A batch's results kept small: told in manifest order with the manifest's titles and paths,
/// whatever order they came in, and whole where they cannot be told by place. Pure.
struct BatchResultsTests {
    let manifest = Manifest(destination: "/d", files: ["a", "b", "c", "d"].map {
        Manifest.Entry(title: $0.uppercased(), url: "http://h.test/\($0)", path: "\($0).pdf")
    })

    func result(_ name: String, _ outcome: TransferOutcome, feed: String? = nil) -> FileResult {
        FileResult(title: name.uppercased(), path: "/d/\(name).pdf", outcome: outcome, feed: feed)
    }

    @Test func resultsComeOutInManifestOrderWithTheirOutcomes() {
        let failure = TransferOutcome.failed(TransferFailure(.notFound, "the server has no such file (404)"))
        var results = BatchResults()
        results.add(result("c", .unchanged), place: 2)
        results.add(result("episode", .downloaded(bytes: 5), feed: "Show"), place: nil)
        results.add(result("b", failure), place: 1)
        results.add(result("a", .downloaded(bytes: 7)), place: 0)
        results.add(FileResult(title: "Feed", path: "/d/Feed", outcome: failure), place: nil)
        #expect(!results.isEmpty)

        let told = results.take(toldWith: manifest)
        #expect(told == [result("a", .downloaded(bytes: 7)), result("b", failure), result("c", .unchanged),
                         result("episode", .downloaded(bytes: 5), feed: "Show"), FileResult(title: "Feed", path: "/d/Feed", outcome: failure)])
        #expect(results.isEmpty)
    }

    @Test func madeWholeTheyAreToldWithTheManifestOfTheirPlaces() {
        var results = BatchResults()
        results.add(result("d", .downloaded(bytes: 1)), place: 3)
        results.add(result("a", .unchanged), place: 0)
        results.makeWhole(toldWith: manifest)

        // The next manifest lists them the other way round and names them differently.
        let next = Manifest(destination: "/d", files: ["d", "a"].map { Manifest.Entry(title: "New \($0)", url: "http://h.test/\($0)", path: "\($0).pdf") })
        #expect(results.take(toldWith: next) == [result("d", .downloaded(bytes: 1)), result("a", .unchanged)])
    }
}
