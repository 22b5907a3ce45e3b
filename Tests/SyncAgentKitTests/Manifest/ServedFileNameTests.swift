import Testing
@testable import SyncAgentKit

/// Names that come from a server or a query: as safe as a manifest's `path` (issue 15).
struct ServedFileNameTests {
    @Test(arguments: [
        ("report.pdf", "report.pdf"),
        ("../../etc/passwd", "passwd"),
        ("/etc/cron.d/evil", "evil"),
        ("C:\\Users\\ann\\report.pdf", "report.pdf"),
        (".bashrc", "bashrc"),
        ("...hidden.pdf", "hidden.pdf"),
        (".report.pdf.part", "report.pdf.part"),
        ("  spaced.pdf  ", "spaced.pdf"),
        ("line\nbreak.pdf", "line_break.pdf"),
        ("exe\u{202E}fdp.exe", "exe_fdp.exe"),
    ])
    func makesOneSafeName(raw: String, name: String) {
        #expect(ServedFileName.sanitized(raw) == name)
    }

    @Test(arguments: ["", ".", "..", "...", "/", "a/", "..\\", " . "])
    func refusesWhatLeavesNoName(raw: String) {
        #expect(ServedFileName.sanitized(raw) == nil)
    }

    @Test func aLongNameIsCutKeepingItsExtensionAndRoomForTheStagingName() throws {
        let name = try #require(ServedFileName.sanitized(String(repeating: "é", count: 300) + ".pdf"))
        #expect(name.hasSuffix(".pdf"))
        #expect(name.utf8.count <= 244)
        #expect(("." + name + ".part").utf8.count <= 255)
    }

    @Test func neverAStagingName() {
        for raw in [".a.part", "..a.PART", ". .x.part"] {
            let name = ServedFileName.sanitized(raw)
            #expect(name.map { !StagingName.isReserved($0) && !$0.hasPrefix(".") } ?? true, "\(raw) → \(String(describing: name))")
        }
    }

    @Test(arguments: [
        ("report.pdf", true), ("download.php", false), ("get.ASPX", false), ("download", false), ("", false), (".pdf", false),
        ("a.b.", false), ("..pdf", true), ("..php", false), ("a.php.pdf", true), ("a.pdf.Php", false), ("a.tar.gz", true),
        ("a.verylongextension", true), ("a.phpx", true), ("a.ph", true), ("a.", false), (".", false), ("..", false),
        ("a.\u{0}php", true), ("Bericht.PHP", false), ("Überblick.pdf", true), ("Überblick.php", false), ("a.p\u{301}hp", true),
        ("a.\u{212A}", true), ("a.PHP\u{301}", true),
    ])
    func aURLNameIsUsefulWithAnExtensionThatIsNoScripts(name: String, useful: Bool) {
        #expect(ServedFileName.isUseful(Substring(name)) == useful)
    }

    @Test(arguments: [
        ("file=report.pdf", "report.pdf"),
        ("id=7&file=Annual%20Report.pdf", "Annual Report.pdf"),
        ("name=a+b.pdf&x=1", "a b.pdf"),
        ("token=abc&doc=paper.pdf", "paper.pdf"),
        ("file=../../x.pdf", "x.pdf"),
        ("file=.hidden.pdf", "hidden.pdf"),
    ])
    func findsANameInTheQuery(query: String, name: String) {
        #expect(ServedFileName.fromQuery(Substring(query)) == name)
    }

    @Test(arguments: ["id=7", "file=script.php", "file=", "x"])
    func findsNoNameInAQueryWithoutOne(query: String) {
        #expect(ServedFileName.fromQuery(Substring(query)) == nil)
    }
}
