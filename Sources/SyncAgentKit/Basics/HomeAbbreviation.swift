/// A path with the home folder written as `~`, as shells and file managers show it: the one
/// rule the terminal (``ShownPath``) and the desktop notification share.
public enum HomeAbbreviation {
    /// `path` with a leading `home` replaced by `~`: "/home/ann/Downloads/x" → "~/Downloads/x".
    /// A trailing "/" is dropped. With no home, or the root as home, the path stays whole.
    public static func abbreviated(_ path: String, home: String?) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var home = home ?? ""
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        if !home.isEmpty, home != "/", path == home { return "~" }
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
        return path
    }
}
