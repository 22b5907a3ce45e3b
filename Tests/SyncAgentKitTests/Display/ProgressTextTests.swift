import Testing
@testable import SyncAgentKit

struct ProgressTextTests {
    @Test func leavesOrdinaryTextAlone() {
        #expect(ProgressText.sanitized("iOS Programming Guide — 日本語 ✓") == "iOS Programming Guide — 日本語 ✓")
        #expect(ProgressText.sanitized(" ~f00000.bin (2) [x]") == " ~f00000.bin (2) [x]")
        #expect(ProgressText.sanitized("") == "")
    }

    @Test func replacesEscapeSequencesAndControlCharacters() {
        let hostile = "Evil\u{1B}[2J\u{1B}]0;title\u{07}\u{0}\u{7F}\u{9B}31m"
        #expect(ProgressText.sanitized(hostile) == "Evil\u{FFFD}[2J\u{FFFD}]0;title\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}31m")
    }

    @Test func turnsLineBreaksAndTabsIntoSpaces() {
        // "\r\n" is a single Character; it must still become two spaces, not slip through.
        #expect(ProgressText.sanitized("one\r\ntwo\tthree\nfour\u{2028}five") == "one  two three four five")
    }

    @Test func replacesBidirectionalOverrides() {
        #expect(ProgressText.sanitized("invoice\u{202E}fdp.exe") == "invoice\u{FFFD}fdp.exe")
        #expect(ProgressText.sanitized("a\u{2066}b\u{2069}") == "a\u{FFFD}b\u{FFFD}")
    }

    @Test func theBytesJustOutsidePrintableASCIIAreStillReplaced() {
        #expect(ProgressText.sanitized("a\u{1F}b~\u{7F}") == "a\u{FFFD}b~\u{FFFD}")
        #expect(ProgressText.sanitized("plain\u{85}") == "plain ")
    }

    /// Text too long to be kept inside the string value is read from its storage: a control
    /// character at its end is found as in a short one, and its columns are its bytes.
    @Test func longTextIsCheckedToItsLastByte() {
        let long = String(repeating: "Networking Overview ", count: 4)
        #expect(ProgressText.sanitized(long) == long)
        #expect(ProgressText.sanitized(long + "\u{1B}") == long + "\u{FFFD}")
        #expect(ProgressText.sanitized(long + "\n") == long + " ")
        #expect(ProgressText.columns(of: long) == 80)
        #expect(ProgressText.columns(of: long + "日本") == 84)
    }

    @Test(arguments: [
        ("Guide", 5), ("", 0), ("Café", 4), ("Cafe\u{301}", 4), ("日本語", 6), ("ｆｕｌｌ", 8),
        ("한국어", 6), ("🚀 launch", 9), ("👩‍💻", 2), ("🇫🇷", 2), ("❤️", 2), ("…", 1),
    ] as [(String, Int)])
    func countsTerminalColumns(text: String, columns: Int) {
        #expect(ProgressText.columns(of: text) == columns)
    }

    @Test func keepsTextThatFits() {
        #expect(ProgressText.truncated("Guide", toColumns: 5) == "Guide")
    }

    @Test func cutsLongTextWithAnEllipsis() {
        #expect(ProgressText.truncated("iOS Programming Guide", toColumns: 10) == "iOS Progr…")
        #expect(ProgressText.truncated("iOS", toColumns: 1) == "…")
        #expect(ProgressText.truncated("iOS", toColumns: 0) == "")
    }

    @Test func neverSplitsAWideCharacterOverTheEdge() {
        // 5 columns: two wide characters (4) would leave no room for "…", so only one fits.
        let cut = ProgressText.truncated("日本語ガイド", toColumns: 5)
        #expect(cut == "日本…")
        #expect(ProgressText.columns(of: cut) == 5)
        let odd = ProgressText.truncated("日本語ガイド", toColumns: 4)
        #expect(odd == "日…")
        #expect(ProgressText.columns(of: odd) == 3)
    }

    @Test func alignsInColumns() {
        #expect(ProgressText.leftAligned("日本", inColumns: 6) == "日本  ")
        #expect(ProgressText.leftAligned("iOS Programming Guide", inColumns: 8) == "iOS Pro…")
        #expect(ProgressText.rightAligned("3.1 MB/s", inColumns: 10) == "  3.1 MB/s")
        #expect(ProgressText.rightAligned("999 bytes/s", inColumns: 10) == "999 bytes/s")
    }

    @Test func cutsWithAnASCIIEllipsis() {
        #expect(ProgressText.truncated("iOS Programming Guide", toColumns: 10, ellipsis: "...") == "iOS Pro...")
        #expect(ProgressText.truncated("iOS", toColumns: 2, ellipsis: "...") == "iO")
        #expect(ProgressText.leftAligned("iOS Programming Guide", inColumns: 8, ellipsis: "...") == "iOS P...")
    }

    @Test func colourSequencesTakeNoColumns() {
        #expect(ProgressText.visibleColumns(of: "\u{1B}[32m✓\u{1B}[0m Guide") == 7)
        #expect(ProgressText.visibleColumns(of: "日本") == 4)
    }
}
