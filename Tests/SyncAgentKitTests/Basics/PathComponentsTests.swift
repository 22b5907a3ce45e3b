import Testing
@testable import SyncAgentKit

struct PathComponentsTests {
    @Test(arguments: [
        ("/home/user/Downloads/guide.pdf", "/home/user/Downloads", "guide.pdf"), ("/guide.pdf", "/", "guide.pdf"),
        ("guide.pdf", ".", "guide.pdf"), ("/home/user/", "/home/user", ""), ("/", "/", ""),
        ("/home/Übersicht – 2026/日本語.pdf", "/home/Übersicht – 2026", "日本語.pdf"), ("a/b", "a", "b"),
    ])
    func splitsAtTheLastSlash(path: String, folder: String, name: String) {
        let split = splitPath(path)
        #expect(split.folder == folder)
        #expect(split.name == name)
    }
}
