import Glibc

/// `syncagent reset`: deletes the files the manifest put in place and forgets the state.
///
/// Only the manifest's own files, and only those syncagent has a record of (it fetched them),
/// are deleted — never any other file in the folder. Afterwards every file of the manifest is
/// held as stopped, so nothing is downloaded again until the user starts it: a reset must
/// not turn into a surprise download of everything.
public enum Reset {
    /// Returns the titles of the files it deleted.
    public static func run(manifest: Manifest, store: StateStore) throws(StateStoreError) -> [String] {
        var deleted: [String] = []
        var holds: [FileRecord] = []
        for entry in manifest.files {
            let path = manifest.destinationPath(of: entry)
            let record = try store.record(forPath: path)
            // A file its server named is kept under that name: both are syncagent's.
            let kept = record?.keptPath ?? path
            PartFile.remove(for: path)
            PartFile.remove(for: kept)
            if record != nil, FileSystem.regularFileInfo(kept) != nil, unlink(kept) == 0 {
                deleted.append(entry.title)
            }
            holds.append(FileRecord(path: path, url: entry.url, hold: .stopped))
        }
        try store.removeAll()
        try store.save(holds)
        return deleted
    }

    /// What a reset says it did.
    public static func summary(deleted: [String], of manifest: Manifest) -> String {
        let them = deleted.count == 1 ? "it" : "them"
        return "reset: deleted \(counted(deleted.count, "file")) and forgot the saved state; `syncagent start` downloads \(them) again"
    }
}
