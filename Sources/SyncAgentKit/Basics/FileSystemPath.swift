import Glibc

/// How the file system names a path.
public enum FileSystemPath {
    /// The real path of the absolute, normalised `path`: its deepest existing folder with
    /// every symbolic link resolved (`realpath(3)`), and the rest as given — so a folder
    /// created later keeps the name it had before it existed. `nil` when not even `/` resolves.
    public static func resolvingLinks(_ path: String) -> String? {
        var existing = path
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                guard !rest.isEmpty else { return base }
                return (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            guard existing != "/" else { return nil }
            let (folder, name) = splitPath(existing)
            rest.append(name)
            existing = folder
        }
    }
}
