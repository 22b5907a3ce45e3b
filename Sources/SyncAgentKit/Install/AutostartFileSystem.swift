import FoundationEssentials
import Glibc

/// The file operations autostart needs: look at a file, write one whole or not at all,
/// remove one — each failure an ``AutostartError`` that names the path.
enum AutostartFileSystem {
    /// What is at a path, without following a symbolic link.
    enum Entry: Equatable {
        case nothing
        case file(String)
        /// A symbolic link (to anything, even to nothing); never install's own doing.
        case symbolicLink
    }

    /// What is at `path`; a file's text is read whole.
    static func entry(at path: String) throws(AutostartError) -> Entry {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .nothing }
            throw failure("cannot look at", path)
        }
        if (info.st_mode & S_IFMT) == S_IFLNK { return .symbolicLink }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("cannot read", path) }
        return .file(String(decoding: data, as: UTF8.self))
    }

    /// Replaces whatever is at `path` with `text`, mode 0644: written to a hidden file in the
    /// same folder, flushed, then renamed over `path`, so a reader sees the old file or the
    /// new one, never half of one. Creates missing folders.
    static func writeAtomically(_ text: String, to path: String) throws(AutostartError) {
        let (folder, name) = splitPath(path)
        try createFolder(folder)
        var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("cannot write a file in", folder) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failedErrno = writeAll(descriptor, text.utf8) ?? 0
        if failedErrno == 0, fchmod(descriptor, 0o644) != 0 || fsync(descriptor) != 0 { failedErrno = errno }
        close(descriptor)
        if failedErrno == 0, rename(temporary, path) != 0 { failedErrno = errno }
        guard failedErrno == 0 else {
            unlink(temporary)
            errno = failedErrno
            throw failure("cannot write", path)
        }
        syncFolder(folder)
    }

    /// Removes the file or symbolic link at `path`; returns whether there was one.
    @discardableResult
    static func remove(_ path: String) throws(AutostartError) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw failure("cannot remove", path)
        }
        syncFolder(splitPath(path).folder)
        return true
    }

    /// Makes `path` a symbolic link to `target`, creating its folder, as `systemctl enable`
    /// links a unit into `default.target.wants`.
    static func link(_ path: String, to target: String) throws(AutostartError) {
        let folder = splitPath(path).folder
        try createFolder(folder)
        guard symlink(target, path) == 0 else { throw failure("cannot make the link", path) }
        syncFolder(folder)
    }

    /// Where the symbolic link at `path` points, or `nil` when it is not one.
    static func linkTarget(_ path: String) -> String? {
        symbolicLinkTarget(path)
    }

    /// Creates `folder` and its missing parents.
    private static func createFolder(_ folder: String) throws(AutostartError) {
        if let reason = createFolders(folder, mode: 0o755) {
            throw AutostartError(.fileSystem, "Cannot create the folder \(folder): \(reason).")
        }
    }

    /// Makes a rename or unlink in `folder` survive a crash.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The error for a failed system call on `path`, with `errno`'s text.
    private static func failure(_ action: String, _ path: String) -> AutostartError {
        AutostartError(.fileSystem, "syncagent \(action) \(path): \(systemReason()).")
    }
}
