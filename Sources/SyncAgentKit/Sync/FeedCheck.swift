import Glibc
import FoundationEssentials

/// What one finished fetch of a feed changes: the feed's record, and — when a new, good body
/// arrived — its episodes, through the pure ``FeedUpdate``. A broken body, a failure, a 304
/// or a body identical to the last one change no episode.
enum FeedCheck {
    /// What a check found, for the batch's report and the log.
    struct Result: Sendable, Equatable {
        /// Why the check failed, if it did (a broken feed, a network failure, 410).
        var failure: TransferFailure?
        /// Episodes that became wanted.
        var queued: Int = 0
        /// What the parse dropped or doubted.
        var warnings: [FeedWarning] = []
    }

    /// Applies `completion` of the fetch of `feed` (kept in `folder`) whose body went to
    /// `body`: saves the record and episodes in one transaction, and deletes the files of
    /// episodes `keep` and `max_age` retire (before their tombstones are saved, so the state
    /// never calls a file gone that is still there).
    static func apply(
        _ completion: TransferCompletion, body: FeedBody, feed: Manifest.Feed, folder: String, store: StateStore,
        retry: Manifest.RetryPolicy, now: Date, unitRandom: Double = Double.random(in: 0..<1)
    ) throws(StateStoreError) -> Result {
        var record = try store.feedRecord(forFolder: folder) ?? FeedRecord(folder: folder, url: feed.url)
        if record.url != feed.url {
            // The user edited the URL: the old validators are another resource's.
            record.url = feed.url
            record.validators = Validators()
            record.movedTo = nil
            record.moveKind = nil
            record.goneSince = nil
        }
        record.lastCheck = now
        if let moved = completion.movedPermanentlyTo, moved != feed.url {
            record.movedTo = moved
            record.moveKind = .redirect
        }
        var result = Result()
        switch completion.outcome {
        case .unchanged:
            record.succeeded()
            try store.saveFeedCheck(record)
        case .failed(let failure):
            if failure.code == .gone {
                record.goneSince = record.goneSince ?? now
            }
            record.failed(failure, retry: retry, now: now, unitRandom: unitRandom)
            try store.saveFeedCheck(record)
            result.failure = failure
        case .downloaded:
            let (digest, parsed) = body.finish()
            switch parsed {
            case .failure(let error):
                // Validators stay those of the last good body, so the next check fetches again.
                let failure = TransferFailure(.badResponse, error.message)
                record.failed(failure, retry: retry, now: now, unitRandom: unitRandom)
                try store.saveFeedCheck(record)
                result.failure = failure
            case .success(let parsedFeed):
                record.validators = completion.validators ?? Validators()
                record.succeeded()
                if let newURL = parsedFeed.newFeedURL, newURL != feed.url, record.moveKind != .redirect {
                    record.movedTo = newURL
                    record.moveKind = .newFeedURL
                }
                guard digest != record.bodySHA256 else {
                    try store.saveFeedCheck(record)
                    return result
                }
                let firstSight = record.bodySHA256 == nil
                record.bodySHA256 = digest
                let update = FeedUpdate.plan(parsedFeed, known: try store.episodes(ofFeed: folder), settings: feed, firstSight: firstSight, now: now)
                try deleteFiles(of: update.deleted, in: folder, store: store)
                try store.saveFeedUpdate(update, record: record)
                result.queued = update.queued.count
                result.warnings = update.warnings
            }
        }
        return result
    }

    /// Deletes the downloads of `feed` that `keep` and `max_age` retire now, leaving
    /// tombstones: after an episode is downloaded, as it may push an older one out.
    static func retireExpired(of feed: Manifest.Feed, folder: String, store: StateStore, now: Date) throws(StateStoreError) {
        let expired = FeedUpdate.expired(try store.episodes(ofFeed: folder), keep: feed.keep, maxAge: feed.maxAge, now: now)
        try deleteFiles(of: expired, in: folder, store: store)
        for id in expired { try store.setEpisodeState(.deleted, ofEpisode: id) }
    }

    /// Deletes the files of the episodes `ids` (only files syncagent wrote: they are `done`)
    /// and forgets their transfer records.
    private static func deleteFiles(of ids: [Int64], in folder: String, store: StateStore) throws(StateStoreError) {
        guard !ids.isEmpty else { return }
        let doomed = Set(ids)
        for episode in try store.episodes(ofFeed: folder) where doomed.contains(episode.id) {
            let path = folder + "/" + episode.fileName
            if FileSystem.regularFileInfo(path) != nil { unlink(path) }
            try store.removeRecord(forPath: path)
        }
    }
}

extension FeedRecord {
    /// A check that worked.
    fileprivate mutating func succeeded() {
        lastError = nil
        failedAttempts = 0
        nextAttempt = nil
        goneSince = nil
    }

    /// A check that failed: transient failures are tried again after a backoff.
    fileprivate mutating func failed(_ failure: TransferFailure, retry: Manifest.RetryPolicy, now: Date, unitRandom: Double) {
        failedAttempts += 1
        lastError = failure.code == .gone ? failure.message + "; it is no longer checked (edit or remove it in the manifest)" : failure.message
        nextAttempt = RetryBackoff(policy: retry).nextAttempt(after: failure.retryCause, failedAttempts: failedAttempts, at: now, unitRandom: unitRandom)?.date
    }
}
