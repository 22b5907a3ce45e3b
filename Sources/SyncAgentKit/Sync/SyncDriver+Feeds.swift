import FoundationEssentials

/// Phase 1 of a batch: feeds. A due feed is fetched through the engine like a file, its body
/// parsed as it arrives (``FeedBody``); when the last fetch is over, the driver asks to plan
/// again, and phase 2 starts the wanted episodes — ordinary transfers, as files are — and
/// the due files.
extension SyncDriver {
    /// A feed fetch under way.
    struct FeedFetch {
        var feed: Manifest.Feed
        /// The absolute folder: the feed's key in the state.
        var folder: String
        var body: FeedBody
    }

    /// Whether a feed fetch is pending: phase 2 waits for it.
    var isFetchingFeeds: Bool { !feedFetches.isEmpty }

    /// Starts fetching the feeds of `manifest` that are due under `conditions`; returns
    /// whether any started (phase 1 is then under way, and phase 2 waits for it).
    func startDueFeeds(of manifest: Manifest, at now: Date, conditions: Conditions) throws(StateStoreError) -> Bool {
        guard !manifest.feeds.isEmpty else { return false }
        var scheduled: [ScheduledFile] = []
        var byFolder: [String: Manifest.Feed] = [:]
        for feed in manifest.feeds {
            let folder = manifest.folderPath(of: feed)
            let record = try store.feedRecord(forFolder: folder)
            guard !Self.skipsChecks(of: feed, record: record) else { continue }
            if let id = ids[folder], feedFetches[id] != nil { continue }
            // `--once` checks each feed once; its second round is phase 2.
            if mode == .everyFileNow && checkedFeeds.contains(folder) { continue }
            scheduled.append(scheduledFeed(feed, folder: folder, record: record, requestedByUser: mode == .everyFileNow || requestedNow.contains(folder)))
            byFolder[folder] = feed
        }
        let plan = Scheduler(timeZone: timeZone).plan(scheduled, at: now, conditions: conditions)
        for folder in plan.start {
            guard let feed = byFolder[folder] else { continue }
            let id = id(for: folder)
            let record = try store.feedRecord(forFolder: folder)
            let current = record?.url == feed.url ? record?.validators ?? Validators() : Validators()
            let body = FeedBody(title: feed.title, url: feed.url)
            feedFetches[id] = FeedFetch(feed: feed, folder: folder, body: body)
            checkedFeeds.insert(folder)
            requestedNow.remove(folder)
            engine.add(TransferRequest(id: id, url: feed.url, destination: folder, current: current, maximumSize: Int64(FeedLimits.standard.maximumBytes)), into: body)
        }
        return !plan.start.isEmpty
    }

    /// How the scheduler sees a feed: its schedule and its last check.
    func scheduledFeed(_ feed: Manifest.Feed, folder: String, record: FeedRecord?, requestedByUser: Bool) -> ScheduledFile {
        ScheduledFile(path: folder, schedule: feed.schedule, existsOnDisk: record?.lastCheck != nil, lastCheck: record.flatMap(Self.lastCheck),
                      requestedByUser: requestedByUser)
    }

    /// Whether the user holds a feed, or its server said it is gone (at the URL the manifest
    /// names now): either way it is not checked.
    static func skipsChecks(of feed: Manifest.Feed, record: FeedRecord?) -> Bool {
        record?.hold != nil || (record?.goneSince != nil && record?.url == feed.url)
    }

    /// How the scheduler sees a feed's last check.
    private static func lastCheck(of record: FeedRecord) -> ScheduledFile.LastCheck? {
        guard let date = record.lastCheck else { return nil }
        guard record.lastError != nil else { return .succeeded(date) }
        return record.nextAttempt.map { .failedTransiently(date, retry: PendingRetry(date: $0, requestedByServer: false)) } ?? .failedPermanently(date)
    }

    /// Records a feed fetch's event; at its end, applies what it found. Returns whether the
    /// event was a feed fetch's.
    func handleFeedEvent(_ event: TransferEvent) -> Bool {
        guard let fetch = feedFetches[event.id] else { return false }
        guard case .finished(let id, let completion) = event else { return true }
        feedFetches[id] = nil
        do throws(StateStoreError) {
            let result = try FeedCheck.apply(completion, body: fetch.body, feed: fetch.feed, folder: fetch.folder, store: store,
                                             retry: manifest?.retry ?? Manifest.RetryPolicy(), now: now())
            if let failure = result.failure {
                recordResult(FileResult(title: fetch.feed.title, path: fetch.folder, outcome: .failed(failure)))
            }
        } catch {
            recordStateError(error)
        }
        // Phase 2 (episodes and files) waits for the last feed.
        if feedFetches.isEmpty { planRequested = true }
        return true
    }

    /// The wanted episodes of every feed the user does not hold, as entries to transfer like
    /// files, each with the id of its episode.
    func wantedEpisodes(of manifest: Manifest) throws(StateStoreError) -> [(entry: Manifest.Entry, episode: EpisodeTransfer)] {
        var wanted: [(entry: Manifest.Entry, episode: EpisodeTransfer)] = []
        for feed in manifest.feeds {
            let folder = manifest.folderPath(of: feed)
            guard try store.feedRecord(forFolder: folder)?.hold == nil else { continue }
            for episode in try store.episodes(ofFeed: folder) where episode.state == .wanted {
                wanted.append((episode.entry(of: feed), EpisodeTransfer(episode: episode.id, feed: feed, folder: folder)))
            }
        }
        return wanted
    }

    /// The feeds of `manifest` the user holds, by title.
    func heldFeeds(of manifest: Manifest) throws(StateStoreError) -> [(title: String, hold: Hold)] {
        var held: [(title: String, hold: Hold)] = []
        for feed in manifest.feeds {
            if let hold = try store.feedRecord(forFolder: manifest.folderPath(of: feed))?.hold { held.append((feed.title, hold)) }
        }
        return held
    }

    /// The held entries of a round that are the manifest's files, not episodes, by title.
    func heldOutsideFeeds(_ held: [(entry: Manifest.Entry, hold: Hold)], in manifest: Manifest) -> [(title: String, hold: Hold)] {
        held.filter { episodeTransfers[manifest.destinationPath(of: $0.entry)] == nil }.map { ($0.entry.title, $0.hold) }
    }

    /// The episode an episode file's transfer is for.
    struct EpisodeTransfer {
        var episode: Int64
        var feed: Manifest.Feed
        /// The feed's absolute folder.
        var folder: String
    }

    /// Marks an episode's transfer's end in its state: done once downloaded (which may retire
    /// an older one under `keep`), failed when no retry will help.
    func recordEpisodeEnd(_ transfer: EpisodeTransfer, outcome: TransferOutcome) {
        let state: EpisodeState
        switch outcome {
        case .downloaded, .unchanged: state = .done
        case .failed(let failure) where !failure.code.isTransient: state = .failed
        case .failed: return
        }
        do throws(StateStoreError) {
            try store.setEpisodeState(state, ofEpisode: transfer.episode)
            if state == .done { try FeedCheck.retireExpired(of: transfer.feed, folder: transfer.folder, store: store, now: now()) }
        } catch {
            recordStateError(error)
        }
    }
}
