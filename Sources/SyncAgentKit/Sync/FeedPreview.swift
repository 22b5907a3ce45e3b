import FoundationEssentials

/// `syncagent check --feeds`: each feed fetched now (through the same engine, unconditionally)
/// and every episode it lists, with whether the next batch would download it — worked out by
/// the same ``FeedUpdate`` against the saved episodes, and nothing written anywhere.
public struct FeedPreview: Sendable, Equatable {
    /// One episode as parsed.
    public struct Episode: Sendable, Equatable {
        public var title: String
        public var guid: String?
        public var published: FeedDate?
        /// The enclosure the feed's `types` choose (else its first).
        public var url: String
        public var mediaType: String?
        public var length: Int64?
        /// Whether the next batch would download it.
        public var wouldFetch: Bool
        /// The file it is or would be saved as, in the feed's folder; nil when it is not
        /// downloaded (another item with its guid wins, or its enclosure's kind is not wanted).
        public var fileName: String?
    }

    /// The feed's title in the manifest.
    public var title: String
    public var url: String
    /// The feed's folder under the destination.
    public var folder: String
    /// Every item with an enclosure, in document order.
    public var episodes: [Episode]
    /// Why the feed could not be read; nil when it could.
    public var failure: String?
    /// What the parse dropped or doubted.
    public var warnings: [String]

    /// Fetches every feed of `manifest` and previews it against the episodes in `store` (nil:
    /// no saved state, so every feed is at first sight).
    public static func run(_ manifest: Manifest, store: StateStore?, now: Date, options: TransferOptions = TransferOptions()) -> [FeedPreview] {
        var completions: [Int: TransferCompletion] = [:]
        let engine = TransferEngine(limits: manifest.limits, retry: manifest.retry, options: options) { event in
            if case .finished(let id, let completion) = event { completions[id] = completion }
        }
        let bodies = manifest.feeds.map { FeedBody(title: $0.title, url: $0.url) }
        for (index, feed) in manifest.feeds.enumerated() {
            let request = TransferRequest(id: index, url: feed.url, destination: manifest.folderPath(of: feed), maximumSize: Int64(FeedLimits.standard.maximumBytes))
            engine.add(request, into: bodies[index])
        }
        engine.run([])
        return manifest.feeds.enumerated().map { index, feed in
            var preview = FeedPreview(title: feed.title, url: feed.url, folder: feed.folder, episodes: [], failure: nil, warnings: [])
            switch completions[index]?.outcome {
            case .failed(let failure):
                preview.failure = failure.message
            case .downloaded:
                switch bodies[index].finish().feed {
                case .failure(let error): preview.failure = error.message
                case .success(let parsed): preview.describe(parsed, settings: feed, folder: manifest.folderPath(of: feed), store: store, now: now)
                }
            case .unchanged, nil:
                preview.failure = "the feed was not fetched"
            }
            return preview
        }
    }

    private mutating func describe(_ feed: Feed, settings: Manifest.Feed, folder: String, store: StateStore?, now: Date) {
        let known = (try? store?.episodes(ofFeed: folder)) ?? []
        let firstSight = ((try? store?.feedRecord(forFolder: folder)) ?? nil)?.bodySHA256 == nil
        let update = FeedUpdate.plan(feed, known: known, settings: settings, firstSight: firstSight, now: now)
        warnings = update.warnings.map(\.message)
        let (listed, _) = EpisodeList.episodes(of: feed, feedTitle: settings.title)
        let chosen = listed.compactMap { FeedUpdate.withChosenEnclosure($0, types: settings.types) }
        let matches = EpisodeMatcher.match(chosen, known: Dictionary(known.map { ($0.id, $0.keys) }, uniquingKeysWith: { first, _ in first }))
        var fate: [FeedItem: (fetch: Bool, name: String)] = [:]
        for new in update.added { fate[new.item] = (new.state == .wanted, new.fileName) }
        for (item, match) in zip(chosen, matches) {
            guard let id = match.known, let episode = known.first(where: { $0.id == id }) else { continue }
            fate[item] = (episode.state == .wanted, episode.fileName)
        }
        episodes = feed.items.filter { $0.enclosure != nil }.map { item in
            let shown = FeedUpdate.withChosenEnclosure(item, types: settings.types) ?? item
            let found = fate[shown]
            return Episode(title: item.title, guid: item.guid, published: item.published, url: shown.enclosure!.url,
                           mediaType: shown.enclosure?.mediaType, length: shown.enclosure?.length, wouldFetch: found?.fetch ?? false, fileName: found?.name)
        }
    }
}
