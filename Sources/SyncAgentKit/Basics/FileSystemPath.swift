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

extension FileSystemPath {
    /// The text of the file at `path` without a leading byte order mark, or `nil` when it cannot
    /// be read or is not UTF-8: what `String(contentsOfFile:encoding: .utf8)` gives, for the
    /// small file read at every start (`user-dirs.dirs`). Read with open(2) and read(2):
    /// Foundation's reader makes a file URL of the path, and its URL parser and error types
    /// were about 450 KB of code that nothing else runs, which every command then kept in memory.
    public static func text(ofFile path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 {
                let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
                return String(validating: bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
