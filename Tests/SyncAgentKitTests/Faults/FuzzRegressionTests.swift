import Foundation
import Testing
@testable import SyncAgentKit

/// Every input in `fuzz/seeds` and `fuzz/regressions` (inputs `fuzz/run` once found failing)
/// loads as the fuzz target demands: no crash, quickly, and either a manifest or errors a
/// terminal can show.
struct FuzzRegressionTests {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4) // Tests/SyncAgentKitTests/Faults/FuzzRegressionTests.swift
        return components.joined(separator: "/")
    }()

    static let inputs: [String] = ["fuzz/seeds", "fuzz/regressions"].flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    @Test func thereAreInputsToReplay() {
        #expect(Self.inputs.contains { $0.hasPrefix("fuzz/seeds/") })
    }

    @Test(arguments: inputs)
    func loadsWithoutHarm(input: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.root + "/" + input))
        let context = ManifestLoader.Context(
            manifestPath: "/home/ada/.config/syncagent/manifest.yaml", homeDirectory: "/home/ada",
            defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
        )
        let started = ContinuousClock.now
        do {
            let manifest = try ManifestLoader(context: context).load(Array(bytes))
            for entry in manifest.files {
                #expect(!entry.path.hasPrefix("/") && !entry.path.split(separator: "/").contains(".."))
            }
        } catch {
            #expect(!error.errors.isEmpty)
            #expect(!error.description.unicodeScalars.contains { RelativePath.isControl($0) && $0 != "\n" })
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    /// Found by `fuzz/run`: libyaml ends a text without a final line break with a line break
    /// of its own, and reported an error at the end on a line the file does not have.
    @Test(arguments: [
        ("i:\n  - ti-: {{ur?", "2:15: expected \",\" or \"}\" to go on with the mapping that starts on line 2, column 11"),
        ("files:\n  - url: x\n    title: [a, b", "3:17: expected \",\" or \"]\" to go on with the list that starts on line 3, column 12"),
        ("files:\r  - url: x\r    title: [a, b", "3:17: expected \",\" or \"]\" to go on with the list that starts on line 3, column 12"),
        ("files:\n  - url: x\n    title: [a, b\n", "4:1: expected \",\" or \"]\" to go on with the list that starts on line 3, column 12"),
    ])
    func anErrorAtTheEndIsPlacedWhereTheTextEnds(text: String, expected: String) {
        let context = ManifestLoader.Context(manifestPath: "m.yaml", homeDirectory: "/h", defaultDestination: "/h/D", workingDirectory: "/w")
        #expect(throws: InvalidManifest.self) { try ManifestLoader(context: context).load(Array(text.utf8)) }
        do {
            _ = try ManifestLoader(context: context).load(Array(text.utf8))
        } catch {
            #expect(error.description == "m.yaml:" + expected)
        }
    }

    @Test func theEndOfATextCountsLinesAsLibYAMLDoes() {
        #expect(TextPosition.end(of: []) == YAMLMark(line: 1, column: 1))
        #expect(TextPosition.end(of: Array("ab\r\ncd\ré\u{85}x\u{2028}\u{2029}yz".utf8)) == YAMLMark(line: 6, column: 3))
        #expect(TextPosition.end(of: [0xEF, 0xBB, 0xBF] + Array("abc".utf8)) == YAMLMark(line: 1, column: 4))
    }
}
