import Testing
@testable import SyncAgentKit

struct RelativePathTests {
    @Test(arguments: [("a.pdf", "a.pdf"), ("./a//b/./c.pdf", "a/b/c.pdf"), ("dir/", "dir"), ("..a/b..", "..a/b..")])
    func normalisesWrittenPaths(written: String, normalised: String) throws {
        #expect(try RelativePath.normalized(written) == normalised)
    }

    @Test(arguments: [
        ("../x", ManifestError.Code.pathEscapes), ("a/../../x", .pathEscapes), ("a/..", .pathEscapes),
        ("/etc/passwd", .pathEscapes), (".", .badValue), ("/", .pathEscapes), ("a\u{1B}b", .controlCharacter),
        (String(repeating: "n", count: 256), .badValue),
    ])
    func refusesPathsThatLeaveTheDestination(written: String, code: ManifestError.Code) {
        do {
            let path = try RelativePath.normalized(written)
            Issue.record("accepted \(path)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test(arguments: [
        ("report.pdf", "report.pdf"), ("Apple%20Guide.pdf", "Apple Guide.pdf"), ("%2F..", "_.."),
        ("..%2F..%2Fetc%2Fpasswd", ".._.._etc_passwd"), ("a%0Ab", "a_b"), ("%C3%A9t%C3%A9", "été"),
        ("%ZZ", "%ZZ"), ("%C3", "%C3"), ("%", "%"),
    ])
    func sanitisesNamesFromURLs(component: Substring, name: String) {
        #expect(RelativePath.fileName(fromURLComponent: component) == name)
    }

    @Test(arguments: ["", ".", "..", "%2E", "%2e%2E"])
    func findsNoNameInSomeURLs(component: Substring) {
        #expect(RelativePath.fileName(fromURLComponent: component) == nil)
    }

    @Test func keepsTheEndOfAnOverlongName() throws {
        let name = try #require(RelativePath.fileName(fromURLComponent: Substring(String(repeating: "n", count: 300) + ".pdf")))
        #expect(name.utf8.count == 255 && name.hasSuffix("n.pdf"))
    }

    @Test func listsEnclosingFolders() {
        #expect(RelativePath.enclosingFolders(of: "a/b/c.pdf") == ["a", "a/b"])
        #expect(RelativePath.enclosingFolders(of: "c.pdf") == [])
        #expect(RelativePath.enclosingFolders(of: "ä/ö/ü.pdf") == ["ä", "ä/ö"])
    }

    @Test func findsTheLastComponent() {
        #expect(RelativePath.lastComponent(of: "a/b/c.pdf") == "c.pdf")
        #expect(RelativePath.lastComponent(of: "c.pdf") == "c.pdf")
        #expect(RelativePath.lastComponent(of: "/x/") == "")
        #expect(RelativePath.lastComponent(of: "ä/ö/ü.pdf") == "ü.pdf")
        #expect(RelativePath.lastComponent(of: "/library/e\u{301}té.pdf") == "e\u{301}té.pdf")
    }

    @Test func takesAPrintableNameAsWritten() {
        let name = Substring("x/rapport-2026.pdf".utf8.dropFirst(2))
        #expect(RelativePath.fileName(fromURLComponent: name) == "rapport-2026.pdf")
    }
}
