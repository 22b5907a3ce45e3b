import Foundation
import Testing
@testable import SyncAgentKit

struct ManifestLoaderTests {
    static let context = ManifestLoader.Context(
        manifestPath: "/home/ada/.config/syncagent/manifest.yaml", homeDirectory: "/home/ada",
        defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
    )

    private func load(_ yaml: String, context: ManifestLoader.Context = Self.context) throws -> Manifest {
        try ManifestLoader(context: context).load(Array(yaml.utf8))
    }

    @Test func fillsInDefaults() throws {
        let manifest = try load("""
            files:
              - url: https://example.org/guides/NetworkingOverview.pdf
            """)
        #expect(manifest == Manifest(
            destination: "/home/ada/Downloads/syncagent",
            files: [.init(title: "NetworkingOverview.pdf", url: "https://example.org/guides/NetworkingOverview.pdf", path: "NetworkingOverview.pdf")],
            limits: .init(concurrent: 5, perHost: 5),
            retry: .init(attempts: 4, initialBackoff: .seconds(1), maximumBackoff: .seconds(60)),
            notify: true
        ))
    }

    @Test func readsEveryKey() throws {
        let manifest = try load("""
            destination: /srv/mirror/apple
            limits: { concurrent: 8, per_host: 2 }
            retry:
              attempts: 6
              backoff: 500ms..2h
            notify: false
            files:
              - title: Networking Overview
                url: HTTPS://developer.apple.com/NetworkingOverview.pdf
                path: ./network//overview.pdf
                sha256: 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08
            """)
        #expect(manifest == Manifest(
            destination: "/srv/mirror/apple",
            files: [.init(
                title: "Networking Overview", url: "HTTPS://developer.apple.com/NetworkingOverview.pdf",
                path: "network/overview.pdf", sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            )],
            limits: .init(concurrent: 8, perHost: 2),
            retry: .init(attempts: 6, initialBackoff: .milliseconds(500), maximumBackoff: .seconds(7200)),
            notify: false
        ))
        #expect(manifest.destinationPath(of: manifest.files[0]) == "/srv/mirror/apple/network/overview.pdf")
    }

    @Test func readsTheScheduleAndEachFilesOverrides() throws {
        let manifest = try load("""
            files:
              - url: https://example.org/a.pdf
              - url: https://example.org/b.pdf
                every: 6h
                discretionary: false
              - url: https://example.org/c.pdf
                not_before: 2027-01-15
                window: 22:00-02:00
            schedule:
              every: 2d
              not_before: 2026-12-01T08:00:00+01:00
              window: "01:00-06:00"
              discretionary: true
            """)
        let december = Manifest.NotBefore.instant(Date(timeIntervalSince1970: 1_796_108_400))
        let nightly = Manifest.DailyWindow(start: 60, end: 360)
        let base = Manifest.Schedule(every: .seconds(172_800), notBefore: december, window: nightly, discretionary: true)
        #expect(manifest.schedule == base)
        #expect(manifest.files.map(\.schedule) == [
            base,
            Manifest.Schedule(every: .seconds(21_600), notBefore: december, window: nightly, discretionary: false),
            Manifest.Schedule(
                every: .seconds(172_800), notBefore: .day(try #require(CalendarDay(year: 2027, month: 1, day: 15))),
                window: Manifest.DailyWindow(start: 1_320, end: 120), discretionary: true
            ),
        ])
    }

    @Test func checksDailyWithoutAScheduleKey() throws {
        let manifest = try load("files:\n  - url: https://example.org/a.pdf\n    every: 1h\n  - url: https://example.org/b.pdf\n")
        #expect(manifest.schedule == Manifest.Schedule(every: .seconds(86_400), notBefore: nil, window: nil, discretionary: false))
        #expect(manifest.files.map(\.schedule.every) == [.seconds(3_600), .seconds(86_400)])
    }

    @Test(arguments: [
        ("~/Downloads/Apple Guides", "/home/ada/Downloads/Apple Guides"),
        ("~", "/home/ada"),
        ("~/", "/home/ada"),
        ("Guides", "/home/ada/.config/syncagent/Guides"),
        ("../../Guides/./iOS/", "/home/ada/Guides/iOS"),
        ("/srv//mirror/../apple", "/srv/apple"),
    ])
    func resolvesTheDestination(written: String, resolved: String) throws {
        let manifest = try load("destination: \(written)\nfiles: []\n")
        #expect(manifest.destination == resolved)
    }

    @Test func resolvesARelativeDestinationAgainstARelativeManifestPath() throws {
        var context = Self.context
        context.manifestPath = "conf/manifest.yaml"
        #expect(try load("destination: guides\nfiles: []\n", context: context).destination == "/work/conf/guides")
        context.manifestPath = "manifest.yaml"
        #expect(try load("destination: ../out\nfiles: []\n", context: context).destination == "/out")
    }

    @Test func aURLThatNamesNoFileIsNamedByItsServerWithTheQuerysNameUntilThen() throws {
        let manifest = try load("""
            files:
              - url: https://example.org/download.php?id=7&file=Annual%20Report.pdf
              - url: https://example.org/get.php?id=8
              - url: https://example.org/files/latest
              - url: https://example.org/docs/guide.pdf?download=1
              - url: https://example.org/download.php?file=written.pdf
                path: mine.pdf
            """)
        #expect(manifest.files.map(\.path) == ["Annual Report.pdf", "get.php", "latest", "guide.pdf", "mine.pdf"])
        #expect(manifest.files.map(\.nameFromServer) == [true, true, true, false, false])
        #expect(manifest.files[0].title == "Annual Report.pdf")
    }

    @Test func derivesPathsAndTitles() throws {
        let manifest = try load("""
            files:
              - url: https://example.org/docs/Apple%20Guide%E2%80%94v2.pdf?download=1#page=3
              - url: https://example.org/a%2F..%2Fb
              - url: https://example.org/%FF.pdf
              - url: https://example.org/%00x
              - url: https://user:secret@[::1]:8443/ipv6.pdf
              - url: https://example.org/whatever
                path: network/overview.pdf
              - title: Written title
                url: https://example.org/written.pdf
            """)
        #expect(manifest.files.map(\.path) == [
            "Apple Guide—v2.pdf", "a_.._b", "%FF.pdf", "_x", "ipv6.pdf", "network/overview.pdf", "written.pdf",
        ])
        #expect(manifest.files.map(\.title) == [
            "Apple Guide—v2.pdf", "a_.._b", "%FF.pdf", "_x", "ipv6.pdf", "overview.pdf", "Written title",
        ])
    }

    @Test func readsMaxSizeForTheManifestAndEachFile() throws {
        let manifest = try load("""
            limits: { max_size: 2GB }
            files:
              - url: https://example.org/a.iso
              - { url: https://example.org/b.iso, max_size: 512 MiB }
              - { url: https://example.org/c.iso, max_size: 1000 }
            """)
        #expect(manifest.limits.maxSize == 2_000_000_000)
        #expect(manifest.files.map(\.maxSize) == [2_000_000_000, 512 << 20, 1000])
        #expect(try load("files: []").limits.maxSize == 16_000_000_000, "the documented default")
    }

    @Test func acceptsNamesThatOnlyLookLikeAPartial() throws {
        let manifest = try load("""
            files:
              - { path: x.bin.part, url: https://example.org/a }
              - { path: .hidden, url: https://example.org/b }
              - { path: .part, url: https://example.org/c }
              - { path: a.part/b, url: https://example.org/d }
            """)
        #expect(manifest.files.map(\.path) == ["x.bin.part", ".hidden", ".part", "a.part/b"])
    }

    @Test func acceptsAnEmptyListOfFiles() throws {
        #expect(try load("files: []\n").files.isEmpty)
    }

    @Test func acceptsQuotedAndBlockText() throws {
        let manifest = try load("""
            files:
              - title: 'iPhone: the guide'
                url: "http://manuals.info.apple.com/MANUALS/1000/MA1565/en_US/iphone_user_guide.pdf"
                path: >-
                  guides/iphone.pdf
            """)
        #expect(manifest.files == [.init(
            title: "iPhone: the guide", url: "http://manuals.info.apple.com/MANUALS/1000/MA1565/en_US/iphone_user_guide.pdf",
            path: "guides/iphone.pdf"
        )])
    }

    @Test func acceptsWindowsLineEndingsAndAByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("files:\r\n  - title: A\r\n    url: https://example.org/a.pdf\r\n".utf8)
        let manifest = try ManifestLoader(context: Self.context).load(bytes)
        #expect(manifest.files == [.init(title: "A", url: "https://example.org/a.pdf", path: "a.pdf")])
    }

    @Test func loadsTheDefaultManifest() throws {
        var context = Self.context
        context.manifestPath = Self.repositoryRoot + "/config/manifest.yaml"
        let manifest = try ManifestLoader(context: context).load()
        #expect(manifest.destination == "/home/ada/Downloads/syncagent")
        #expect(manifest.files.map(\.title) == [
            "iOS Programming Guide", "Human Interface Guidelines", "Networking Overview",
            "AV Foundation", "iPhone User Guide", "Foundation Reference",
        ])
        #expect(manifest.files.map(\.path) == [
            "iphoneappprogrammingguide.pdf", "MobileHIG.pdf", "NetworkingOverview.pdf",
            "AVFoundationPG.pdf", "iphone_user_guide.pdf", "FoundationObjC.pdf",
        ])
        #expect(manifest.files.allSatisfy { $0.url.hasPrefix("https://developer.apple.com/") || $0.url.hasPrefix("http://manuals.info.apple.com/") })
        #expect(manifest.limits == .init() && manifest.retry == .init() && manifest.notify)
    }

    @Test func theDefaultManifestsCommentedKeysLoadToo() throws {
        // The commented examples teach the format, so they must be right: uncomment them all.
        let uncommented = try Self.defaultManifestUncommented()
        let manifest = try ManifestLoader(context: Self.context).load(Array(uncommented.utf8))
        #expect(manifest.destination == "/home/ada/Downloads/Apple Guides")
        #expect(manifest.files[0].path == "guides/ios-programming-guide.pdf")
        #expect(manifest.files[0].sha256 != nil)
        #expect(manifest.schedule.window == Manifest.DailyWindow(start: 60, end: 360))
        #expect(manifest.schedule.discretionary)
        #expect(manifest.files[0].schedule.every == .seconds(21_600))
        #expect(manifest.files[1].schedule.every == manifest.schedule.every)
    }

    @Test func loadsTenThousandEntries() throws {
        var yaml = "files:\n"
        for index in 0..<10_000 {
            yaml += "  - title: Guide \(index)\n    url: https://example.org/guides/\(index % 100)/guide-\(index).pdf\n"
            if index.isMultiple(of: 3) { yaml += "    path: set-\(index % 7)/guide-\(index).pdf\n" }
        }
        let manifest = try load(yaml)
        #expect(manifest.files.count == 10_000)
        #expect(manifest.files[9_999] == .init(title: "Guide 9999", url: "https://example.org/guides/99/guide-9999.pdf", path: "set-3/guide-9999.pdf"))
        #expect(Set(manifest.files.map(\.path)).count == 10_000)
    }

    @Test func reportsAFileItCannotRead() throws {
        var context = Self.context
        context.manifestPath = "/nonexistent/manifest.yaml"
        let missing = try #require(throws: InvalidManifest.self) { try ManifestLoader(context: context).load() }
        #expect(missing.description == "/nonexistent/manifest.yaml: cannot read the manifest: no such file or directory")
        #expect(missing.errors.map(\.code) == [.unreadable])

        context.manifestPath = Self.repositoryRoot + "/config"
        let folder = try #require(throws: InvalidManifest.self) { try ManifestLoader(context: context).load() }
        #expect(folder.errors.map(\.message) == ["cannot read the manifest: is a directory"])
    }

    /// The package's root folder, found from this file's path.
    /// The default manifest with every commented example key uncommented.
    static func defaultManifestUncommented() throws -> String {
        let bytes = try ManifestFile.contents(of: repositoryRoot + "/config/manifest.yaml")
        let optionalKeys = ["destination", "schedule", "limits", "retry", "notify", "title", "path", "sha256", "max_size"] + ManifestValidator.scheduleKeys
        return String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let indent = line.prefix { $0 == " " }
                let body = line.dropFirst(indent.count)
                let isExample = optionalKeys.contains { body.hasPrefix("# \($0): ") }
                return isExample ? indent + body.dropFirst(2) : line
            }
            .joined(separator: "\n")
    }

    static let repositoryRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4) // Tests/SyncAgentKitTests/Manifest/ManifestLoaderTests.swift
        return components.joined(separator: "/")
    }()
}
