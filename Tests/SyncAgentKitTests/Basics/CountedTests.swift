import Testing
@testable import SyncAgentKit

/// Counts with their nouns: never "1 files" (issue 15).
struct CountedTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(counted(1, "file") == "1 file")
        #expect(counted(0, "file") == "0 files")
        #expect(counted(2, "new failure") == "2 new failures")
        #expect(counted(1, "new failure") == "1 new failure")
        #expect(counted(3, "entry", "entries") == "3 entries")
    }

    @Test func messagesThatCountOneFileSayFile() throws {
        let loader = ManifestLoader(context: .init(manifestPath: "m.yaml", homeDirectory: "/home/ann", defaultDestination: "/tmp", workingDirectory: "/tmp"))
        let manifest = try loader.load(Array("files:\n  - url: https://example.org/a.pdf\n".utf8))
        #expect(Reset.summary(deleted: ["/tmp/a.pdf"], of: manifest) == "reset: deleted 1 file and forgot the saved state; `syncagent start` downloads it again")
        #expect(formatByteCount(1) == "1 byte")
    }
}
