import Testing
@testable import SyncAgentKit

struct DestinationFolderTests {
    @Test(arguments: [
        ("~/Guides", "/home/ada/Guides"), ("~", "/home/ada"), ("/srv/./x/../y/", "/srv/y"),
        ("Guides", "/etc/syncagent/Guides"), ("../..", "/"), ("~user", nil), ("a\u{0}b", nil),
    ] as [(String, String?)])
    func resolves(written: String, resolved: String?) {
        let result = try? DestinationFolder.resolve(written, homeDirectory: "/home/ada", manifestFolder: "/etc/syncagent")
        #expect(result == resolved)
    }

    @Test func findsTheManifestsFolder() {
        #expect(DestinationFolder.folder(ofFile: "/etc/syncagent/manifest.yaml", workingDirectory: "/work") == "/etc/syncagent")
        #expect(DestinationFolder.folder(ofFile: "manifest.yaml", workingDirectory: "/work") == "/work")
        #expect(DestinationFolder.folder(ofFile: "../conf/m.yaml", workingDirectory: "/work/x") == "/work/conf")
    }
}
