import Glibc

/// Creates the folder `path` and any missing parent, new ones with `mode`; returns `nil`
/// when the folder is there, else why it is not ("permission denied", "a file of that name
/// is in the way"). mkdir(2) rather than FileManager, whose errors on Linux do not say what
/// went wrong.
func createFolders(_ path: String, mode: mode_t) -> String? {
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        partial += "/" + component
        guard mkdir(partial, mode) == 0 || errno == EEXIST else { return systemReason() }
    }
    var status = stat()
    guard stat(path, &status) == 0 else { return systemReason() }
    guard status.st_mode & S_IFMT == S_IFDIR else { return "a file of that name is in the way" }
    return nil
}

/// Where the symbolic link at `path` points: readlink(2), or `nil` with `errno` set.
func symbolicLinkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
