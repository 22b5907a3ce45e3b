extension Optional where Wrapped == FileRecord {
    /// The record only if it was saved for `url`: a manifest entry whose URL changed starts
    /// afresh at the same path, with no validators, hold or history of the old URL.
    func saved(for url: String) -> FileRecord? {
        flatMap { $0.url == url ? $0 : nil }
    }

    /// The record saved for `url`, or a new one for the file at `path`.
    func savedOrNew(path: String, url: String) -> FileRecord {
        saved(for: url) ?? FileRecord(path: path, url: url)
    }
}
