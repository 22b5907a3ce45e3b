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
    public static func message(held: [(title: String, hold: Hold)], fileCount: Int) -> String? {
        guard !held.isEmpty else { return nil }
        let paused = held.filter { $0.hold == .paused }.count
        let stopped = held.count - paused
        guard held.count >= fileCount else {
            let titles = held.map { ProgressText.sanitized($0.title) }
            let shown = titles.count <= 5 ? titles.joined(separator: ", ") : titles.prefix(4).joined(separator: ", ") + " and \(titles.count - 4) more"
            return "left out, as you paused or stopped them: \(shown) (`syncagent start` releases them)"
        }
        let one = held.count == 1
        let files = one ? "the 1 file of the manifest is" : "all \(held.count) files of the manifest are"
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
