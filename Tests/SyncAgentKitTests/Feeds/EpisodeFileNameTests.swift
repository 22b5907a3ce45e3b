import Testing
@testable import SyncAgentKit

/// Episode file names: templates, cleaning, cutting, extensions.
struct EpisodeFileNameTests {
    private func item(_ title: String, url: String = "https://e.com/ep.mp3", type: String? = nil, date: String? = "Thu, 20 Nov 2026 22:15:00 -0500") -> FeedItem {
        FeedItem(title: title, guid: nil, published: date.flatMap(FeedDateParser.parse), enclosures: [FeedEnclosure(url: url, mediaType: type)], episode: 612, season: 3)
    }

    @Test func theDefaultTemplateIsDateAndTitle() {
        #expect(EpisodeFileName.make(for: item("Sharp & Pointy"), feedTitle: "ATP") == "2026-11-20 Sharp & Pointy.mp3")
    }

    @Test func everyPlaceholder() throws {
        let template = try FileNameTemplate.parse("{feed} S{season}E{episode} {url_name} {title} {date}")
        #expect(EpisodeFileName.make(for: item("T", url: "https://e.com/x/file%20name.MP3?x=1"), template: template, feedTitle: "ATP") == "ATP S3E612 file name T 2026-11-20.mp3")
    }

    @Test(arguments: ["{nope}", "{title", "plain", "{feed}"])
    func badTemplatesAreRefused(text: String) {
        #expect(throws: FileNameTemplate.Problem.self) { try FileNameTemplate.parse(text) }
    }

    @Test(arguments: [
        ("a/b\\c|d", "2026-11-20 a-b-c-d.mp3"),
        ("612: Title", "2026-11-20 612 - Title.mp3"),
        ("What?*<now>\"", "2026-11-20 What___now_'.mp3"),
        ("tab\tnew\nline\u{0}nul\u{7F}", "2026-11-20 tab new line nul.mp3"),
        ("evil\u{202E}3pm.exe", "2026-11-20 evil3pm.exe.mp3"),
        ("Cafe\u{301}", "2026-11-20 Caf\u{E9}.mp3"),
        ("title...  ", "2026-11-20 title.mp3"),
    ])
    func titlesAreCleaned(title: String, expected: String) {
        let name = EpisodeFileName.make(for: item(title), feedTitle: "F")
        #expect(name == expected)
        #expect(name.unicodeScalars.elementsEqual(expected.unicodeScalars), "NFC")
    }

    @Test(arguments: ["...hidden", " .part", ".x.part", "..", "", "   ", "\u{202E}", "/"])
    func aNameNeverStartsWithADotOrIsEmpty(title: String) throws {
        let template = try FileNameTemplate.parse("{title}")
        let name = EpisodeFileName.make(for: item(title, url: "https://e.com/"), template: template, feedTitle: "F")
        #expect(!name.isEmpty && !name.hasPrefix(".") && !StagingName.isReserved(name))
        #expect(!name.hasPrefix(" "))
    }

    @Test func anEmptyTitleFallsBackToTheURLName() throws {
        let template = try FileNameTemplate.parse("{title}")
        #expect(EpisodeFileName.make(for: item("", url: "https://e.com/ep42.m4a"), template: template, feedTitle: "F") == "ep42.m4a")
        #expect(EpisodeFileName.make(for: item("", url: "https://e.com/"), template: template, feedTitle: "F") == "episode")
    }

    @Test func longNamesAreCutLeavingRoomForTheStagingNameAndACounter() {
        let name = EpisodeFileName.make(for: item(String(repeating: "é", count: 300)), feedTitle: "F")
        #expect(name.hasSuffix(".mp3"))
        #expect(name.utf8.count <= EpisodeFileName.maximumBytes)
        #expect(EpisodeFileName.maximumBytes == 244)
        #expect(("." + name.dropLast(4) + " (99).mp3" + ".part").utf8.count <= 255)
        #expect(!name.contains("\u{FFFD}"))
    }

    @Test(arguments: [
        ("https://e.com/a.mp3?x=y.exe", nil, "mp3"),
        ("https://e.com/download.php?id=3", "audio/mpeg", "mp3"),
        ("https://e.com/stream", "audio/x-m4a", "m4a"),
        ("https://e.com/stream", nil, nil),
        ("https://e.com/v.2024", "video/mp4", "mp4"),
        ("https://e.com/a.OGG", "audio/mpeg", "ogg"),
    ] as [(String, String?, String?)])
    func extensionsComeFromTheURLOrTheType(url: String, type: String?, expected: String?) {
        #expect(FileExtension.of(url: url, mediaType: type) == expected)
    }

    @Test func theExtensionNeverComesFromTheTitle() {
        #expect(EpisodeFileName.make(for: item("song.exe", url: "https://e.com/stream", type: nil), feedTitle: "F") == "2026-11-20 song.exe")
        #expect(EpisodeFileName.make(for: item("song.exe", url: "https://e.com/stream", type: "audio/mpeg"), feedTitle: "F") == "2026-11-20 song.exe.mp3")
    }
}
