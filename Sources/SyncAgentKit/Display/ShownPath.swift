/// A path as a person reads it on the terminal: the home folder written as `~`, as shells
/// and file managers show it, and nothing that could act on the terminal.
public enum ShownPath {
    /// `path` with a leading `home` replaced by `~` (``HomeAbbreviation``), made safe to print.
    public static func abbreviated(_ path: String, home: String?) -> String {
        ProgressText.sanitized(HomeAbbreviation.abbreviated(path, home: home))
    }
}
