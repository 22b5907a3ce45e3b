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

    /// Literals go to the static-string append, and one of a single character (which Swift may
    /// keep as its scalar rather than as bytes) comes out whole.
    @Test func literalsOfEveryLengthAndSizesAndTimes() {
        var line = PlainLine()
        line.append("(")
        line.append("é")
        line.append("✓")
        line.append("")
        line.append(" in ")
        #expect(line.text == "(é✓ in ")

        line.removeAll()
        for count in [-1, 0, 3, 8, 9] {
            line.append(spaces: count)
            line.append("|")
        }
        #expect(line.text == "|" + "|" + "   |" + "        |" + "        |")

        line.removeAll()
        line.append(byteCount: 28_600_000)
        line.append(" in ")
        line.append(elapsedTime: .milliseconds(3_240))
        #expect(line.text == formatByteCount(28_600_000) + " in " + formatElapsedTime(.milliseconds(3_240)))
        #expect(line.text == "28.6 MB in 3.2 s")
    }
}
