import Glibc

/// `syncagent reset`: deletes the files the manifest put in place, its feeds' episodes
/// included, and forgets the state, feeds and episodes too.
///
/// Only the manifest's own files, and only those syncagent has a record of (it fetched them),
/// are deleted — never any other file in the folder. Afterwards every file and feed of the
/// manifest is held as stopped, so nothing is downloaded again until the user starts it: a
/// reset must not turn into a surprise download of everything (a feed, its history
/// forgotten, would fetch its newest episodes again).
public enum Reset {
    /// Returns the titles of the files it deleted (an episode as "Feed/Episode").
    public static func run(manifest: Manifest, store: StateStore) throws(StateStoreError) -> [String] {
        var deleted: [String] = []
        var holds: [FileRecord] = []
        var episodes: [Manifest.Entry] = []
        for feed in manifest.feeds {
            for episode in try store.episodes(ofFeed: manifest.folderPath(of: feed)) where episode.state != .deleted {
                episodes.append(episode.entry(of: feed))
            }
        }
        for entry in manifest.files + episodes {
            let path = manifest.destinationPath(of: entry)
            let record = try store.record(forPath: path)
            // A file its server named is kept under that name: both are syncagent's.
            let kept = record?.keptPath ?? path
            PartFile.remove(for: path)
            PartFile.remove(for: kept)
            if record != nil, FileSystem.regularFileInfo(kept) != nil, unlink(kept) == 0 {
                deleted.append(entry.title)
            }
        }
        for entry in manifest.files { holds.append(FileRecord(path: manifest.destinationPath(of: entry), url: entry.url, hold: .stopped)) }
        try store.removeAll()
        try store.forgetFeeds()
        try store.save(holds)
        for feed in manifest.feeds { try store.setFeedHold(.stopped, forFolder: manifest.folderPath(of: feed), url: feed.url) }
        return deleted
    }

    /// What a reset says it did.
    public static func summary(deleted: [String], of manifest: Manifest) -> String {
        let them = deleted.count == 1 ? "it" : "them"
        return "reset: deleted \(counted(deleted.count, "file")) and forgot the saved state; `syncagent start` downloads \(them) again"
    }
}
