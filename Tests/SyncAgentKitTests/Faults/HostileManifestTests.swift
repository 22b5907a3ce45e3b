import Foundation
import Testing
@testable import SyncAgentKit

/// Manifests written to hurt: alias bombs, deep nesting, bytes that are not UTF-8, sheer size,
/// control characters. Each is refused (or read) with a clear error, and no crash. How long
/// each takes is `bench/manifest-load`'s to measure: timings stay out of the tests.
struct HostileManifestTests {
    static let context = ManifestLoader.Context(
        manifestPath: "/home/ada/.config/syncagent/manifest.yaml", homeDirectory: "/home/ada",
        defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
    )

    /// Loads `bytes`, returning the manifest or its errors.
    func load(_ bytes: [UInt8]) -> Result<Manifest, InvalidManifest> {
        Result { () throws(InvalidManifest) in try ManifestLoader(context: Self.context).load(bytes) }
    }

    func errors(_ text: String) -> [ManifestError] {
        errors(Array(text.utf8))
    }

    func errors(_ bytes: [UInt8]) -> [ManifestError] {
        guard case .failure(let invalid) = load(bytes) else { return [] }
        return invalid.errors
    }

    @Test func aBillionLaughsIsRefusedAtTheFirstAlias() {
        var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...12 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "files: *a12\n"
        guard case .failure(let invalid) = load(Array(yaml.utf8)) else { Issue.record("an alias bomb was accepted"); return }
        #expect(invalid.errors.allSatisfy { $0.code == .unsupportedYAML })
        #expect(invalid.errors.last?.description == "/home/ada/.config/syncagent/manifest.yaml:2:10: aliases (*name) are not supported in a manifest; write the value out in full")
    }

    @Test func anAliasInsideTheFilesListIsRefused() {
        let yaml = "files:\n  - &guide\n    url: https://example.org/a.pdf\n  - *guide\n"
        #expect(errors(yaml).map(\.code) == [.unsupportedYAML, .unsupportedYAML])
    }

    @Test(arguments: [
        String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000),
        String(repeating: "{a: ", count: 100_000) + "b" + String(repeating: "}", count: 100_000),
        "files:\n" + (1...2_000).map { String(repeating: "  ", count: $0) + "- \n" }.joined(),
        "files: " + String(repeating: "[", count: 1_000_000),
    ])
    func deepNestingIsRefused(yaml: String) {
        guard case .failure(let invalid) = load(Array(yaml.utf8)) else { Issue.record("deep nesting was accepted"); return }
        #expect(invalid.errors.map(\.code).contains(.tooDeep))
    }

    @Test(arguments: [
        [0xFF, 0xFE],                 // bytes that never start a character
        [0xE9],                       // Latin-1 "é"
        [0xC3],                       // a character cut short at the end of a line
        [0xED, 0xA0, 0x80],           // a UTF-16 surrogate written as UTF-8
        [0xF4, 0x90, 0x80, 0x80],     // beyond U+10FFFF
    ] as [[UInt8]])
    func bytesThatAreNotUTF8AreRefusedWhereTheyAre(bad: [UInt8]) {
        let bytes = Array("files:\n  - title: Caf".utf8) + bad + Array("\n    url: https://example.org/a.pdf\n".utf8)
        let found = errors(bytes)
        #expect(found.map(\.code) == [.encoding])
        #expect(found.first?.line == 2 && found.first?.column == 15, "\(found)")
        #expect(found.first?.message.hasPrefix("the manifest is not valid UTF-8 (found byte 0x") == true)
    }

    @Test func utf16IsRefusedNotMisread() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "files: []\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let found = errors(bytes)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.code == .encoding || $0.code == .controlCharacter })
    }

    @Test func aTenMegabyteManifestLoads() throws {
        var yaml = "files:\n"
        var index = 0
        while yaml.utf8.count < 10_000_000 {
            yaml += "  - title: \"Guide \(index): \(String(repeating: "a long title ", count: 12))\"\n    url: https://example.org/guides/\(index).pdf\n"
            index += 1
        }
        #expect(try load(Array(yaml.utf8)).get().files.count == index)
    }

    @Test func aTenMegabyteValueIsReadWithoutTrouble() {
        let yaml = "files:\n  - url: https://example.org/a.pdf\n    title: " + String(repeating: "x", count: 10_000_000) + "\n"
        #expect((try? load(Array(yaml.utf8)).get())?.files.first?.title.utf8.count == 10_000_000)
    }

    @Test func tenThousandEntriesLoad() throws {
        var yaml = "destination: ~/Guides\nfiles:\n"
        for index in 0..<10_000 {
            yaml += "  - title: Guide \(index)\n    url: https://example.org/guides/\(index % 100)/guide-\(index).pdf\n"
            if index.isMultiple(of: 3) { yaml += "    path: set-\(index % 7)/guide-\(index).pdf\n    every: 6h\n" }
        }
        #expect(try load(Array(yaml.utf8)).get().files.count == 10_000)
    }

    @Test(arguments: ["\u{07}", "\u{1B}[31m", "\u{08}", "\u{00}", "\u{9B}2J", "\u{7F}"])
    func controlCharactersInATitleAreRefused(control: String) {
        let escaped = control.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\\u\(String(format: "%04X", $0.value))" : String($0) }.joined()
        let found = errors("files:\n  - title: \"Guide \(escaped)\"\n    url: https://example.org/a.pdf\n")
        #expect(found.map(\.code) == [.controlCharacter])
        #expect(found.first?.line == 2 && found.first?.column == 12, "\(found)")
        #expect(found.first?.message.unicodeScalars.contains { RelativePath.isControl($0) } == false)
    }

    @Test func aRawControlCharacterIsRefusedWhereItIs() {
        let found = errors("files:\n  - title: Guide \u{1B}[2J\n    url: https://example.org/a.pdf\n")
        #expect(found.map(\.code) == [.controlCharacter])
        #expect(found.first?.description == "/home/ada/.config/syncagent/manifest.yaml:2:18: control character U+001B is not allowed in a manifest; remove it")
    }

    @Test func controlCharactersInKeysAndPathsAreShownEscaped() {
        let found = errors("files:\n  - \"ti\\etle\": Guide\n    url: https://example.org/a.pdf\n    path: \"a\\tb.pdf\"\n")
        #expect(found.map(\.code) == [.unknownKey, .controlCharacter])
        for error in found {
            #expect(!error.description.unicodeScalars.contains { RelativePath.isControl($0) })
        }
    }
}
