import Testing
@testable import SyncAgentKit

struct TerminalSymbolsTests {
    @Test func utf8LocalesGetUnicode() {
        #expect(TerminalSymbols.localeIsUTF8(environment: ["LANG": "en_US.UTF-8"]))
        #expect(TerminalSymbols.localeIsUTF8(environment: ["LANG": "C.utf8"]))
        #expect(TerminalSymbols.localeIsUTF8(environment: ["LANG": "de_DE.utf-8@euro"]))
    }

    @Test func otherLocalesGetASCII() {
        #expect(!TerminalSymbols.localeIsUTF8(environment: [:]))
        #expect(!TerminalSymbols.localeIsUTF8(environment: ["LANG": "C"]))
        #expect(!TerminalSymbols.localeIsUTF8(environment: ["LANG": "POSIX"]))
        #expect(!TerminalSymbols.localeIsUTF8(environment: ["LANG": "de_DE.ISO-8859-1"]))
        #expect(TerminalSymbols.forLocale(environment: ["LANG": "en_GB"]) == .ascii)
    }

    @Test func lcAllWinsOverLcCtypeWhichWinsOverLang() {
        #expect(!TerminalSymbols.localeIsUTF8(environment: ["LC_ALL": "C", "LC_CTYPE": "C.UTF-8", "LANG": "en_US.UTF-8"]))
        #expect(TerminalSymbols.localeIsUTF8(environment: ["LC_CTYPE": "C.UTF-8", "LANG": "C"]))
        // An empty variable counts as unset, as POSIX says.
        #expect(TerminalSymbols.localeIsUTF8(environment: ["LC_ALL": "", "LANG": "en_US.UTF-8"]))
    }

    @Test func asciiSymbolsAreASCII() {
        let ascii = TerminalSymbols.ascii
        for symbol in [ascii.done, ascii.unchanged, ascii.failed, ascii.ellipsis, ascii.unknown, ascii.arrow] {
            #expect(symbol.unicodeScalars.allSatisfy { $0.isASCII }, "\(symbol)")
        }
        #expect(ProgressText.columns(of: ascii.done) == ProgressText.columns(of: TerminalSymbols.unicode.done))
    }
}
