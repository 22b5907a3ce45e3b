/// Pausing, stopping and releasing files, feeds and episodes in the saved state: what
/// `pause`, `stop`, `resume` and `start` record, whether an agent carries them out now or
/// picks them up when it starts.
public enum Holds {
    /// Holds the files: paused keeps their partial downloads, stopped deletes them.
    public static func hold(_ entries: [Manifest.Entry], in manifest: Manifest, as hold: Hold, store: StateStore) throws(StateStoreError) {
        for entry in entries {
            let path = manifest.destinationPath(of: entry)
            var record = try store.record(forPath: path).savedOrNew(path: path, url: entry.url)
            record.hold = hold
            if hold == .stopped { discardPartial(of: &record) }
            try store.save(record)
        }
    }

    /// Holds the targets: files and episodes as files; a feed is no longer checked and none
    /// of its episodes transferred (stopped: their partial downloads are deleted).
    public static func hold(_ targets: HoldTargets, in manifest: Manifest, as hold: Hold, store: StateStore) throws(StateStoreError) {
        try self.hold(targets.entries, in: manifest, as: hold, store: store)
        for feed in targets.feeds {
            let folder = manifest.folderPath(of: feed)
            try store.setFeedHold(hold, forFolder: folder, url: feed.url)
            guard hold == .stopped else { continue }
            for episode in try store.episodes(ofFeed: folder) where episode.state == .wanted {
                let path = manifest.destinationPath(of: episode.entry(of: feed))
                guard var record = try store.record(forPath: path), record.partial != nil else { continue }
                discardPartial(of: &record)
                try store.save(record)
            }
        }
    }

    /// Lifts any hold from the files.
    public static func release(_ entries: [Manifest.Entry], in manifest: Manifest, store: StateStore) throws(StateStoreError) {
        for entry in entries {
            let path = manifest.destinationPath(of: entry)
            var record = try store.record(forPath: path).savedOrNew(path: path, url: entry.url)
            guard record.hold != nil else { continue }
            record.hold = nil
            try store.save(record)
        }
    }

    /// Lifts any hold from the targets; `starting` (the user's `start`) also turns a skipped
    /// or failed episode back to wanted, so it is fetched.
    public static func release(_ targets: HoldTargets, in manifest: Manifest, starting: Bool, store: StateStore) throws(StateStoreError) {
        try release(targets.entries, in: manifest, store: store)
        for feed in targets.feeds {
            try store.setFeedHold(nil, forFolder: manifest.folderPath(of: feed), url: feed.url)
        }
        guard starting else { return }
        for episode in targets.episodes where episode.state == .skipped || episode.state == .failed {
            try store.setEpisodeState(.wanted, ofEpisode: episode.id)
        }
    }

    private static func discardPartial(of record: inout FileRecord) {
        PartFile.remove(for: record.keptPath)
        record.partial = nil
    }
}
