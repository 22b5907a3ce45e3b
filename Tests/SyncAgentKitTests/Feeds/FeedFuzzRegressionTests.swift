import Foundation
import Testing
@testable import SyncAgentKit

/// Every input in `fuzz/feed-seeds` and `fuzz/feed-regressions` (inputs `fuzz/run feeds` once
/// found failing) parses as the fuzz target demands: quickly, the same whole or in chunks,
/// and either a feed with http(s) enclosures or an error a terminal can show.
struct FeedFuzzRegressionTests {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4) // Tests/SyncAgentKitTests/Feeds/FeedFuzzRegressionTests.swift
        return components.joined(separator: "/")
    }()

    static let inputs: [String] = ["fuzz/feed-seeds", "fuzz/feed-regressions"].flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    @Test func thereAreInputsToReplay() {
        #expect(Self.inputs.contains { $0.hasPrefix("fuzz/feed-seeds/") })
    }

    @Test(arguments: inputs)
    func parsesWithoutHarm(input: String) throws {
        let bytes = Array(try #require(FileManager.default.contents(atPath: Self.root + "/" + input)))
        let started = ContinuousClock.now
        let whole = Result { () throws(FeedError) in try FeedParser.parse(bytes, title: "Fuzz", url: "https://example.com/feed.xml") }
        let parser = FeedParser(title: "Fuzz", url: "https://example.com/feed.xml")
        let chunked = Result { () throws(FeedError) in
            for chunk in stride(from: 0, to: bytes.count, by: 7) { try parser.parse(Array(bytes[chunk..<min(chunk + 7, bytes.count)])) }
            return try parser.finish()
        }
        switch (whole, chunked) {
        case (.success(let feed), .success(let other)):
            #expect(feed == other)
            for enclosure in feed.items.flatMap(\.enclosures) {
                #expect(FeedURL.isHTTP(enclosure.url))
            }
        case (.failure(let error), .failure(let other)):
            #expect(error.code == other.code)
            #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
        default:
            Issue.record("whole and chunked bodies disagree: \(whole) / \(chunked)")
        }
        // A hang guard, not a speed test (see HostileFeedTests).
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
