/// Pausing, stopping and releasing files in the saved state: what `pause`, `stop`, `resume`
/// and `start` record, whether an agent carries them out now or picks them up when it starts.
public enum Holds {
    /// Holds the files: paused keeps their partial downloads, stopped deletes them.
    public static func hold(_ entries: [Manifest.Entry], in manifest: Manifest, as hold: Hold, store: StateStore) throws(StateStoreError) {
        for entry in entries {
            let path = manifest.destinationPath(of: entry)
            var record = try savedRecord(of: entry, at: path, in: store)
            record.hold = hold
            if hold == .stopped {
                PartFile.remove(for: path)
                record.partial = nil
            }
            try store.save(record)
        }
    }

    /// Lifts any hold from the files.
    public static func release(_ entries: [Manifest.Entry], in manifest: Manifest, store: StateStore) throws(StateStoreError) {
        for entry in entries {
            let path = manifest.destinationPath(of: entry)
            var record = try savedRecord(of: entry, at: path, in: store)
            guard record.hold != nil else { continue }
            record.hold = nil
            try store.save(record)
        }
    }

    /// What `pause`, `stop`, `resume` and `start` say they did: "paused 2 files: A, B",
    /// "paused all 6 files".
    public static func summary(_ verb: String, _ entries: [Manifest.Entry], all: Bool) -> String {
        let count = entries.count == 1 ? "1 file" : "\(entries.count) files"
        return all ? "\(verb) all \(count)" : "\(verb) \(count): " + entries.map(\.title).joined(separator: ", ")
    }

    private static func savedRecord(of entry: Manifest.Entry, at path: String, in store: StateStore) throws(StateStoreError) -> FileRecord {
        try store.record(forPath: path).flatMap { $0.url == entry.url ? $0 : nil } ?? FileRecord(path: path, url: entry.url)
    }
}
