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

    /// Text of scalars counted a column each without grapheme breaking measures what the
    /// Characters measure: each such scalar alone, next to ASCII, next to each other, and
    /// before a combining mark or an emoji selector (which take the long way).
    @Test func narrowCharactersCountedByScalarAreTheirCharactersColumns() {
        let narrow = (0...0x2FFFF).compactMap(Unicode.Scalar.init).filter(ProgressText.isNarrowCharacter)
        #expect(narrow.count > 1_000)
        func characterColumns(_ text: String) -> Int { text.reduce(0) { $0 + ProgressText.columns(of: $1) } }
        for (index, scalar) in narrow.enumerated() {
            let next = narrow[(index + 1) % narrow.count]
            for text in ["\(scalar)", "a\(scalar)b", "\(scalar)\(next)\(scalar)", "\(scalar)\u{301}", "\(scalar)\u{FE0F}", "\(scalar)日"] {
                #expect(ProgressText.columns(of: text) == characterColumns(text), "U+\(String(scalar.value, radix: 16))")
            }
        }
        #expect(ProgressText.columns(of: "Guide — 3 s …") == 13)
        #expect(ProgressText.columns(of: "Cafe\u{301} — ok") == 9)
    }

    @Test func repeatedCharactersAreWhatRepeatingAStringMakes() {
        for count in 0...130 {
            for character in ["#", "-", " "] {
                #expect(ProgressText.repeated(character.utf8.first!, count: count) == String(repeating: character, count: count))
            }
        }
        #expect(ProgressText.repeated(UInt8(ascii: " "), count: -3) == "")
    }

    @Test func colourSequencesTakeNoColumns() {
        #expect(ProgressText.visibleColumns(of: "\u{1B}[32m✓\u{1B}[0m Guide") == 7)
        #expect(ProgressText.visibleColumns(of: "日本") == 4)
    }

    /// Every sequence ``TerminalStyle/paint(_:_:)`` writes takes no column, whatever it holds
    /// and whatever stands around it: wide text, an ellipsis, text right after the final
    /// letter, a line long enough to be kept apart from its string value.
    @Test func colourSequencesTakeNoColumnsWhateverSurroundsThem() {
        let style = TerminalStyle(colors: true)
        let pieces = ["日本語 guide", "Café…", "—", "[#####-----]", String(repeating: "Long title ", count: 12), "m", "x"]
        let colors: [TerminalStyle.Color] = [.green, .red, .dim, .bold, .cyan, .yellow]
        for (index, piece) in pieces.enumerated() {
            let painted = style.paint(piece, colors[index % colors.count])
            #expect(painted.contains("\u{1B}"))
            #expect(ProgressText.visibleColumns(of: painted) == ProgressText.columns(of: piece))
            let line = painted + " " + style.paint(piece, .bold) + "  12.3 MB"
            #expect(ProgressText.visibleColumns(of: line) == 2 * ProgressText.columns(of: piece) + 10)
        }
        #expect(ProgressText.visibleColumns(of: "\u{1B}[1;32mdone\u{1B}[0m") == 4)
    }
}
