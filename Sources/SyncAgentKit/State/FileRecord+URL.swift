extension Optional where Wrapped == FileRecord {
    /// The record only if it was saved for `url`: a manifest entry whose URL changed starts
    /// afresh at the same path, with no validators, hold or history of the old URL.
    ///
    /// The record is handed on, not copied (a copy retains and releases its strings, and a
    /// batch asks this of every file).
    consuming func saved(for url: String) -> FileRecord? {
        guard let record = consume self, record.url == url else { return nil }
        return record
    }

    /// The record saved for `url`, or a new one for the file at `path`.
    consuming func savedOrNew(path: String, url: String) -> FileRecord {
        (consume self).saved(for: url) ?? FileRecord(path: path, url: url)
    }
}
