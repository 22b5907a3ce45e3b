extension DesktopNotification {
    /// What a batch put in place, as the body's first lines: the manifest's files
    /// ("6 files, 48.2 MB, in ~/Downloads/Apple Guides"), then the feeds' new episodes with
    /// the feeds named in batch order ("2 new episodes (ATP, Reply All) · 180 MB"); a line
    /// only for what there is.
    static func downloadedLines(_ results: [FileResult], destination: String, home: String?) -> [String] {
        var files: (count: Int, bytes: Int64) = (0, 0)
        var episodes: (count: Int, bytes: Int64) = (0, 0)
        var feeds: [String] = []
        for result in results {
            guard case .downloaded(let bytes) = result.outcome else { continue }
            if let feed = result.feed {
                episodes = (episodes.count + 1, episodes.bytes + bytes)
                if !feeds.contains(feed) { feeds.append(feed) }
            } else {
                files = (files.count + 1, files.bytes + bytes)
            }
        }
        var lines: [String] = []
        if files.count > 0 {
            lines.append("\(counted(files.count, "file")), \(formatByteCount(files.bytes)), in \(HomeAbbreviation.abbreviated(destination, home: home))")
        }
        if episodes.count > 0 {
            lines.append("\(counted(episodes.count, "new episode")) (\(feeds.joined(separator: ", "))) · \(formatByteCount(episodes.bytes))")
        }
        return lines
    }
}
