import FoundationEssentials
import SyncAgentKit

/// `check --feeds --json`: a stable form scripts and tests read. Keys sorted, every key
/// always present (null when unknown), dates in RFC 3339 UTC.
///
/// `{"feeds": [{"title", "url", "folder", "error", "warnings": [...], "episodes": [{"title",
/// "guid", "published", "url", "type", "length", "fetch", "file"}]}]}`
enum FeedPreviewJSON {
    static func text(of previews: [FeedPreview]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Document(feeds: previews.map(FeedForm.init))) else {
            fatalError("the feed preview is not JSON")
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct Document: Encodable {
        var feeds: [FeedForm]
    }

    private struct FeedForm: Encodable {
        var preview: FeedPreview

        init(_ preview: FeedPreview) { self.preview = preview }

        enum Keys: String, CodingKey { case title, url, folder, error, warnings, episodes }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(preview.title, forKey: .title)
            try container.encode(preview.url, forKey: .url)
            try container.encode(preview.folder, forKey: .folder)
            try container.encode(preview.failure, forKey: .error)
            try container.encode(preview.warnings, forKey: .warnings)
            try container.encode(preview.episodes.map(EpisodeForm.init), forKey: .episodes)
        }
    }

    private struct EpisodeForm: Encodable {
        var episode: FeedPreview.Episode

        init(_ episode: FeedPreview.Episode) { self.episode = episode }

        enum Keys: String, CodingKey { case title, guid, published, url, type, length, fetch, file }

        /// `encode` of an optional writes null for nil, so every key is always there.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(episode.title, forKey: .title)
            try container.encode(episode.guid, forKey: .guid)
            try container.encode(episode.published?.description, forKey: .published)
            try container.encode(episode.url, forKey: .url)
            try container.encode(episode.mediaType, forKey: .type)
            try container.encode(episode.length, forKey: .length)
            try container.encode(episode.wouldFetch, forKey: .fetch)
            try container.encode(episode.fileName, forKey: .file)
        }
    }
}
