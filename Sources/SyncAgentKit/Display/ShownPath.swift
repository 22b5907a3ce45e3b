/// A path as a person reads it on the terminal: the home folder written as `~`, as shells
/// and file managers show it, and nothing that could act on the terminal.
public enum ShownPath {
    /// `path` with a leading `home` replaced by `~`: "/home/ann/Downloads/x" → "~/Downloads/x".
    /// A trailing "/" is dropped. With no home, or the root as home, the path stays whole.
    public static func abbreviated(_ path: String, home: String?) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var home = home ?? ""
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        let shown: String
        if !home.isEmpty, home != "/", path == home {
            shown = "~"
        } else if !home.isEmpty, home != "/", path.hasPrefix(home + "/") {
            shown = "~" + path.dropFirst(home.count)
        } else {
            shown = path
        }
        return ProgressText.sanitized(shown)
    }
}
