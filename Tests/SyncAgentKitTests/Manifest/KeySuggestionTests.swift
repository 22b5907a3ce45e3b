import Testing
@testable import SyncAgentKit

struct KeySuggestionTests {
    @Test(arguments: [
        ("titel", "title"), ("Title", "title"), ("URL", "url"), ("sha-256", "sha256"), ("pth", "path"),
        ("colour", nil), ("checksum", nil), ("x", nil), ("sha", nil),
    ] as [(String, String?)])
    func suggestsOnlyLikelyTypos(typed: String, suggestion: String?) {
        #expect(KeySuggestion.closest(to: typed, among: ["title", "url", "path", "sha256"]) == suggestion)
    }

    @Test func countsASwapOfNeighboursAsOneEdit() {
        let distance = { (a: String, b: String) in KeySuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
        #expect(distance("titel", "title") == 1)
        #expect(distance("", "url") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("per_host", "per_host") == 0)
    }
}
