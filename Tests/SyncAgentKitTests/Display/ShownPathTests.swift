import Testing
@testable import SyncAgentKit

struct ShownPathTests {
    @Test func theHomeFolderIsATilde() {
        #expect(ShownPath.abbreviated("/home/ann/Downloads/Apple Guides/", home: "/home/ann") == "~/Downloads/Apple Guides")
        #expect(ShownPath.abbreviated("/home/ann", home: "/home/ann/") == "~")
    }

    @Test func otherPathsStayWhole() {
        #expect(ShownPath.abbreviated("/home/annette/x", home: "/home/ann") == "/home/annette/x")
        #expect(ShownPath.abbreviated("/srv/x", home: "/") == "/srv/x")
        #expect(ShownPath.abbreviated("/srv/x", home: nil) == "/srv/x")
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        #expect(ShownPath.abbreviated("/home/ann/a\u{1B}[2Jb", home: "/home/ann") == "~/a\u{FFFD}[2Jb")
    }
}
