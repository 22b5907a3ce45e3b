internal import CLinux
import Glibc

/// The few filesystem operations transfers need, on plain paths.
enum FileSystem {
    /// Fails when a folder on the way from `root` (exclusive: the user's own choice) down to
    /// `folder` is a symbolic link, so a link planted in the destination cannot send a file
    /// elsewhere. Folders that do not exist yet are fine: they will be created as folders.
    static func refuseLinks(below root: String, on folder: String) throws(TransferFailure) {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        guard folder.hasPrefix(base + "/") else { return }
        var current = base
        for component in folder.dropFirst(base.count + 1).split(separator: "/") {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                throw TransferFailure(.disk, "\(current) is a symbolic link; syncagent does not follow links out of the destination folder")
            }
        }
    }

    /// Creates the folder `path` and its missing parents (`mkdir -p`).
    static func createFolders(_ path: String) throws(TransferFailure) {
        // Nearly every file goes to a folder that is there already: one stat(2), where
        // making sure of each component took a mkdir(2) each (three a file in /tmp/x/out).
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        if let reason = SyncAgentKit.createFolders(path, mode: 0o755) {
            throw TransferFailure(.disk, "cannot create the folder \(path): \(reason)")
        }
    }

    /// Up to this many files are flushed one by one; more, with one `syncfs(2)` per filesystem.
    /// An `fsync` costs about 0.3 ms here, a `syncfs` a few: below this count, flushing only
    /// our own files is as cheap and leaves other programs' writes alone.
    static let mostFlushedOneByOne = 16

    /// Makes files or folders durable, data and metadata, and returns why for each path that
    /// could not be (empty when all went well).
    ///
    /// A few are flushed each with `fsync(2)`, which writes only their own pages. More are
    /// flushed with one `syncfs(2)` per filesystem: a single device cache flush however many
    /// files there are, where an `fsync` each would cost a flush and a synchronous metadata
    /// write per file. `syncfs` also writes back what other programs left dirty on that
    /// filesystem, which the kernel would otherwise write within half a minute anyway.
    static func makeDurable(_ items: [DurableItem]) -> [String: TransferFailure] {
        var failures: [String: TransferFailure] = [:]
        if items.count <= mostFlushedOneByOne {
            for item in items where !flush(item, with: fsync) {
                failures[item.path] = .diskError("cannot flush", item.path)
            }
            return failures
        }
        var flushed: [UInt64: TransferFailure?] = [:]
        for item in items {
            if flushed[item.device] == nil {
                flushed[item.device] = flush(item, with: syncfs) ? .some(nil) : .diskError("cannot flush", item.path)
            }
            if let failure = flushed[item.device]! { failures[item.path] = failure }
        }
        return failures
    }

    /// A file or folder to flush: its path (which names it in failures), the descriptor of a
    /// file open already (one with no name has only that), and its filesystem.
    typealias DurableItem = (path: String, descriptor: Int32?, device: UInt64)

    /// Applies `sync` (`fsync` or `syncfs`) to the item's descriptor, or to its path opened
    /// read-only.
    private static func flush(_ item: DurableItem, with sync: (Int32) -> Int32) -> Bool {
        if let descriptor = item.descriptor { return sync(descriptor) == 0 }
        let descriptor = open(item.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return sync(descriptor) == 0
    }

    /// The size and modification time (Unix seconds) of a regular file, or `nil`. A symlink
    /// is not the file, whatever it points to: a download replaces it rather than write
    /// through it, and its target's dates must not make the server answer "not modified".
    static func regularFileInfo(_ path: String) -> (size: Int64, modificationTime: Int64)? {
        var info = stat()
        // withCString hands over the string's own bytes; passing the String copies them first.
        guard path.withCString({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec))
    }

    /// Feeds the first `length` bytes of an open file to a hasher (to continue hashing a
    /// resumed partial). Returns `false` when the file cannot be read that far.
    static func hash(firstBytes length: Int64, of descriptor: Int32, into hasher: SHA256Hasher) -> Bool {
        guard length > 0 else { return true }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < length {
            let count = pread(descriptor, buffer.baseAddress, Int(min(Int64(buffer.count), length - done)), off_t(done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            done += Int64(count)
        }
        return true
    }

    /// The filesystem and inode of what is at `path` (not following a symlink), or `nil`.
    static func identity(at path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
