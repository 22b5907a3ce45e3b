import Testing
@testable import SyncAgentKit

struct TextQuotingTests {
    @Test func quotesAndEscapes() {
        #expect(TextQuoting.quoted("five") == "\"five\"")
        #expect(TextQuoting.quoted("say \"hi\"\\\n\t\u{1B}") == "\"say \\\"hi\\\"\\\\\\n\\t\\u{1b}\"")
    }

    @Test func shortensLongValues() {
        let shown = TextQuoting.quoted(String(repeating: "x", count: 100))
        #expect(shown == "\"" + String(repeating: "x", count: TextQuoting.maximumShownLength) + "…\"")
        #expect(TextQuoting.quoted(String(repeating: "x", count: TextQuoting.maximumShownLength)).contains("…") == false)
    }
}
