import Foundation
@testable import SyncAgentKit

/// The feed corpus in `Corpus/`: real-world feed shapes, read from the source tree.
enum FeedCorpus {
    static let folder: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast() // FeedCorpus.swift
        return components.joined(separator: "/") + "/Corpus"
    }()

    /// The bytes of `name` in the corpus.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return Array(data)
    }

    /// `name` parsed as the feed "Test" at `url`.
    static func parse(_ name: String, url: String? = "https://example.com/feed.xml") throws -> Feed {
        try FeedParser.parse(bytes(name), title: "Test", url: url)
    }

    /// The error parsing `bytes` gives, or nil when it parses.
    static func error(parsing bytes: [UInt8], limits: FeedLimits = .standard) -> FeedError? {
        do {
            _ = try FeedParser.parse(bytes, title: "Test", url: "https://example.com/feed.xml", limits: limits)
            return nil
        } catch {
            return error
        }
    }
}
