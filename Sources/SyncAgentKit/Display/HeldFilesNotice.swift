/// What `syncagent --once` says about files it left alone because the user paused or stopped
/// them (they stay so until resumed or started, across runs).
public enum HeldFilesNotice {
    /// The notice for `held` files (title and how each is held) out of `fileCount` in the
    /// manifest, or `nil` when none is held.
    ///
    /// When every file is held there was nothing to do — after `syncagent reset` every file is
    /// stopped — and the notice says so and how to go on, rather than a bare "0 files":
    /// "nothing to do: all 5 files of the manifest are stopped (as `syncagent reset` leaves
    /// them); `syncagent start` releases them, then `syncagent --once` fetches them".
    ///
    /// `held` names files and feeds (`feedCount` of the manifest's), so the words fit: "the 1
    /// feed of the manifest is paused", "all 3 files and feeds of the manifest are stopped".
    public static func message(held: [(title: String, hold: Hold)], fileCount: Int, feedCount: Int = 0) -> String? {
        guard !held.isEmpty else { return nil }
        let paused = held.filter { $0.hold == .paused }.count
        let stopped = held.count - paused
        guard held.count >= fileCount + feedCount else {
            let titles = held.map { ProgressText.sanitized($0.title) }
            let shown = titles.count <= 5 ? titles.joined(separator: ", ") : titles.prefix(4).joined(separator: ", ") + " and \(titles.count - 4) more"
            return "left out, as you paused or stopped them: \(shown) (`syncagent start` releases them)"
        }
        let one = held.count == 1
        let noun = feedCount == 0 ? ("file", "files") : fileCount == 0 ? ("feed", "feeds") : ("file or feed", "files and feeds")
        let files = one ? "the 1 \(noun.0) of the manifest is" : "all \(held.count) \(noun.1) of the manifest are"
        let how: String
        let release: String
        if stopped == 0 {
            how = "paused"
            release = "`syncagent resume` continues"
        } else if paused == 0 {
            how = "stopped (as `syncagent reset` leaves \(one ? "it" : "them"))"
            release = "`syncagent start` releases"
        } else {
            how = "paused (\(paused)) or stopped (\(stopped))"
            release = "`syncagent start` releases"
        }
        let them = one ? "it" : "them"
        return "nothing to do: \(files) \(how); \(release) \(them), then `syncagent --once` fetches \(them)"
    }
}
