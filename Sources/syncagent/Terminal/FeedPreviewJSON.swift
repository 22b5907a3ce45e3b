import Foundation
import SyncAgentKit

/// `check --feeds --json`: a stable form scripts and tests read. Keys sorted, every key
/// always present (null when unknown), dates in RFC 3339 UTC.
///
/// `{"feeds": [{"title", "url", "folder", "error", "warnings": [...], "episodes": [{"title",
/// "guid", "published", "url", "type", "length", "fetch", "file"}]}]}`
enum FeedPreviewJSON {
    static func text(of previews: [FeedPreview]) -> String {
        let feeds: [[String: Any]] = previews.map { preview in
            [
                "title": preview.title, "url": preview.url, "folder": preview.folder,
                "error": preview.failure ?? NSNull(), "warnings": preview.warnings,
                "episodes": preview.episodes.map { episode -> [String: Any] in
                    [
                        "title": episode.title, "guid": episode.guid ?? NSNull(), "published": episode.published?.description ?? NSNull(),
                        "url": episode.url, "type": episode.mediaType ?? NSNull(), "length": episode.length ?? NSNull(),
                        "fetch": episode.wouldFetch, "file": episode.fileName ?? NSNull(),
                    ]
                },
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: ["feeds": feeds], options: [.sortedKeys, .withoutEscapingSlashes]) else {
            fatalError("the feed preview is not JSON")
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
