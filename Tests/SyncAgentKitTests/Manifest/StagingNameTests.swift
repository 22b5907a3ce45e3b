import Testing
@testable import SyncAgentKit

struct StagingNameTests {
    @Test(arguments: [
        ("a/b.pdf", nil), (".x.part", ".x.part"), ("sub/.Guide.PDF.PART", ".Guide.PDF.PART"), (".a.part/b.pdf", ".a.part"),
        ("a/.b.part/.c.part", ".b.part"), (".part", nil), ("x.part", nil), ("a/.part/b", nil), ("ä/.ü.part/c", ".ü.part"),
        ("ä.part", nil), (".ä.pärt", nil),
    ] as [(String, String?)])
    func findsTheFirstComponentWithAStagingName(path: String, component: String?) {
        #expect(StagingName.reservedComponent(of: path).map(String.init) == component)
    }

    @Test func theComponentFoundIsASliceOfThePath() throws {
        let path = "ä/.ü.part/c"
        let component = try #require(StagingName.reservedComponent(of: path))
        #expect(path[component.startIndex..<component.endIndex] == ".ü.part")
    }
}
