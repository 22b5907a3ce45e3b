import Testing
@testable import SyncAgentKit

/// A line made of appended pieces is their text, whatever the pieces hold.
struct PlainLineTests {
    @Test func isThePiecesAppendedInOrder() {
        var line = PlainLine()
        #expect(line.isEmpty && line.text == "")
        let long = String(repeating: "long title ", count: 10)
        line.append("Café ☕️ 日本 ")
        line.append(StaticString("done "))
        line.append(long)
        line.append(byte: UInt8(ascii: "\n"))
        #expect(line.text == "Café ☕️ 日本 done " + long + "\n")
        #expect(line.bytes == Array(("Café ☕️ 日本 done " + long + "\n").utf8))

        line.removeAll(keepingCapacity: true)
        #expect(line.isEmpty)
        line.append("x")
        #expect(line.text == "x")
    }
}
