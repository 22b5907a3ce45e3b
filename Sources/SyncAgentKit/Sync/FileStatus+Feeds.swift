import FoundationEssentials

extension FileStatus {
    /// Each feed of the manifest and its episodes, as `status` shows them: the feed's own row
    /// (its last check, why it failed, where it moved), then one row per episode but the
    /// tombstones — new, downloading, done ("up to date"), skipped or failed. `record` gives
    /// an episode file's transfer record, as for a file.
    static func feeds(
        of manifest: Manifest, store: StateStore, record: (Manifest.Entry, String) throws(StateStoreError) -> FileRecord?
    ) throws(StateStoreError) -> [FileStatus] {
        var rows: [FileStatus] = []
        for feed in manifest.feeds {
            let folder = manifest.folderPath(of: feed)
            let saved = try store.feedRecord(forFolder: folder)
            var feedRow = FileStatus(feed: feed, folder: folder, record: saved?.url == feed.url ? saved : nil)
            // The user's hold stands whatever URL the feed was last checked at.
            if let hold = saved?.hold { feedRow.state = hold == .stopped ? .stopped : .paused }
            rows.append(feedRow)
            for episode in try store.episodes(ofFeed: folder) where episode.state != .deleted {
                let entry = episode.entry(of: feed)
                let path = manifest.destinationPath(of: entry)
                var row = FileStatus(entry: entry, path: path, record: try record(entry, path))
                row.feed = feed.title
                switch episode.state {
                case .skipped: row.state = .skipped
                case .failed where row.state != .paused && row.state != .stopped: row.state = .failed
                case .done where row.state == .notYetFetched: row.state = .upToDate
                default: break
                }
                if let hold = saved?.hold, row.state != .upToDate, row.state != .skipped { row.state = hold == .stopped ? .stopped : .paused }
                rows.append(row)
            }
        }
        return rows
    }

    /// A feed's own row: never checked, up to date or failed (410 included); a move the
    /// feed announced is the row's message, so the user can edit the manifest.
    init(feed: Manifest.Feed, folder: String, record: FeedRecord?) {
        self.init(title: feed.title, path: folder, state: .notYetFetched)
        self.feed = feed.title
        guard let record else { return }
        lastResultDate = record.lastCheck
        if let error = record.lastError {
            state = record.nextAttempt == nil ? .failed : .waitingToRetry
            lastResult = "failed"
            lastMessage = error
            nextCheck = record.nextAttempt
        } else if record.lastCheck != nil {
            state = .upToDate
            lastResult = "checked"
        }
        if let moved = record.movedTo {
            let how = record.moveKind == .redirect ? "the server redirects it permanently" : "the feed says it moved"
            lastMessage = [lastMessage, "\(how) to \(moved); edit its `url` in the manifest"].compactMap { $0 }.joined(separator: "; ")
        }
    }
}
