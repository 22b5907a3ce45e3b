/// Pausing, stopping and releasing files in the saved state: what `pause`, `stop`, `resume`
/// and `start` record, whether an agent carries them out now or picks them up when it starts.
public enum Holds {
    /// Holds the files: paused keeps their partial downloads, stopped deletes them.
    public static func hold(_ entries: [Manifest.Entry], in manifest: Manifest, as hold: Hold, store: StateStore) throws(StateStoreError) {
        for entry in entries {
            let path = manifest.destinationPath(of: entry)
            var record = try store.record(forPath: path).savedOrNew(path: path, url: entry.url)
            record.hold = hold
            if hold == .stopped {
                PartFile.remove(for: record.keptPath)
                record.partial = nil
            }
            try store.save(record)
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
}
