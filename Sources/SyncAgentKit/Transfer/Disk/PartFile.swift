internal import CLinux
import Glibc

/// The hidden file a download is written to before it is whole: `.NAME.part` beside `NAME`,
/// or for a small new file, a file with no name at all in that folder.
///
/// Being in the same folder puts it on the same filesystem, so putting it in place is one
/// atomic step (`rename(2)`, or `linkat(2)` for a file with no name): the destination is
/// always either the old version or the new one.
///
/// Every name used here is a ``StagingName`` (hidden, ending in `.part`), a form the manifest
/// refuses for its entries: no entry's file can be another entry's partial, and no entry's
/// partial can be another entry's file.
///
/// A small new file is created with `O_TMPFILE`: it has no name until it is put in place, so
/// it costs one folder operation instead of two (create and rename), and a crash leaves
/// nothing of it behind. 10,000 files of 1 KiB took a quarter less time that way. Such a file
/// cannot be resumed, which costs little at its size (see ``largestUnnamedLength``).
final class PartFile {
    /// Where the finished file goes.
    let destination: String
    /// The hidden partial file (for a file with no name, the name it gets if an older version
    /// must be replaced).
    let path: String
    /// Whether the file has no name yet (see the type's description).
    private(set) var isUnnamed = false
    private var descriptor: Int32

    /// New files up to this long are created without a name. A transfer of one that is cut
    /// starts again from zero instead of resuming, which costs at most a round trip's worth of
    /// bytes more (128 KiB is what a 35 Mbit/s link carries in 30 ms); longer ones keep a named
    /// partial to continue with `Range`. 1,000 files of 100 KiB took 8 % less time without
    /// names than with them (median of 12 interleaved runs each, 203.7 -> 187.7 ms).
    static let largestUnnamedLength: Int64 = 128 << 10

    /// Gathers the body into large writes; `nil` once the file is closed.
    private var writer: BlockWriter?

    /// The hidden partial file that belongs to a destination.
    static func path(for destination: String) -> String {
        // Built on the string's own UTF-8 bytes, in one allocation, for a name of ordinary
        // length in a folder other than "/": this runs for every file fetched or re-checked,
        // where walking the string's UTF-8 view and appending its pieces cost 2,600
        // instructions.
        var text = destination
        let built = text.withUTF8 { bytes -> String? in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash != 0, bytes.count - slash <= 255 - 6 + 1 else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 6) { path in
                _ = path.initialize(fromContentsOf: bytes[...slash])
                path[slash + 1] = UInt8(ascii: ".")
                _ = path[(slash + 2)...].initialize(fromContentsOf: bytes[(slash + 1)...])
                _ = path[(bytes.count + 1)...].initialize(fromContentsOf: ".part".utf8)
                return bytes.count + 6
            }
        }
        if let built { return built }
        let (folder, name) = splitPath(destination)
        return folder + "/." + partialName(name) + ".part"
    }

    /// `name`, or for a name too long to take "." and ".part" within Linux's 255 bytes, its
    /// start and a hash of the whole: still one name per file, the same on every run.
    ///
    /// The shortened form is `.START-HASH.part`, so its partial reads `..START-HASH.part.part`:
    /// the partial of a name the manifest refuses (``StagingName``), so it can never be the
    /// partial of another entry, however that entry is named.
    private static func partialName(_ name: String) -> String {
        guard name.utf8.count > 255 - 6 else { return name }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var start = Substring(name)
        while start.utf8.count > 200 { start.removeLast() }
        return "." + start + "-" + hexadecimal(hash) + StagingName.suffix
    }

    /// 16 hexadecimal digits.
    static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The size of an existing partial for `destination`, or 0. Only a plain file of ours
    /// counts: a symlink or a hard link could make a resume write into some other file.
    static func existingSize(for destination: String) -> Int64 {
        var info = stat()
        // withCString hands over the string's own bytes; passing the String copies them first.
        guard path(for: destination).withCString({ lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 else { return 0 }
        return Int64(info.st_size)
    }

    /// Deletes the partial of `destination`, if any.
    static func remove(for destination: String) {
        unlink(path(for: destination))
    }

    /// Opens the partial for `destination`, keeping its first `offset` bytes and dropping the
    /// rest, and positions writing at `offset`. Creates missing folders. `expectedLength`, the
    /// whole file's length when the server says it, sizes the write buffer and lets a big file
    /// bypass the page cache (see ``BlockWriter``).
    ///
    /// From zero, whatever is at the partial's path is replaced by a new file of ours, so a
    /// symlink or hard link planted there is never written through. A partial to continue
    /// must be such a file already (see ``existingSize(for:)``) and hold `offset` bytes.
    /// Folders below `root` that are symbolic links are refused, not followed.
    ///
    /// `prefixHasher` is fed the `offset` bytes kept, read through the descriptor the rest is
    /// written to: the checksum covers the very file that is put in place. `blocks` lends the
    /// writer its direct-I/O blocks (the engine shares one among all its files).
    init(destination: String, root: String?, keepingFirst offset: Int64, expectedLength: Int64? = nil, prefixHasher: SHA256Hasher? = nil,
         blocks: DirectIOBlocks = DirectIOBlocks()) throws(TransferFailure) {
        self.destination = destination
        self.path = Self.path(for: destination)
        let folder = splitPath(destination).folder
        if let root { try FileSystem.refuseLinks(below: root, on: folder) }
        descriptor = -1
        let unnamed = offset == 0 && expectedLength.map { $0 <= Self.largestUnnamedLength } == true && OpenFileLink.isAvailable
        // The folder is made only when the file cannot be: nearly every file goes to a folder
        // that is there already, and trying first spares each a look-up of the folder.
        for attempt in 0..<2 {
            if attempt == 1 {
                guard errno == ENOENT || errno == ENOTDIR else { break }
                try FileSystem.createFolders(folder)
            }
            if unnamed {
                // A filesystem without O_TMPFILE refuses it: a named partial does instead.
                descriptor = open(folder, syncagent_O_TMPFILE | O_RDWR | O_CLOEXEC, 0o644)
                isUnnamed = descriptor >= 0
                if !isUnnamed && (errno == ENOENT || errno == ENOTDIR) { continue }
            }
            if !isUnnamed { descriptor = Self.openNamed(path, keepingFirst: offset) }
            if descriptor >= 0 { break }
        }
        // Before the engine holds many files open, so that the table's growth is not its wait.
        DescriptorTable.growAhead(opened: descriptor)
        guard descriptor >= 0 else {
            switch errno {
            case EACCES, EPERM, EROFS: throw .diskError("cannot write in the folder", folder)
            default: throw .diskError("cannot create", path)
            }
        }
        // A new file is empty and positioned at zero already. Truncating it anyway would cost
        // more than the call: ext4 writes back, on close, every file truncated to zero (its
        // guard for programs that rewrite files in place).
        if offset > 0 { try cutToOffset(offset) }
        // Before the writer: it may turn on direct I/O, which plain reads cannot use.
        if let prefixHasher, !FileSystem.hash(firstBytes: offset, of: descriptor, into: prefixHasher) {
            throw TransferFailure.diskError("cannot read back", path)
        }
        writer = BlockWriter(descriptor: descriptor, path: path, offset: offset, expectedLength: expectedLength, pool: blocks)
    }

    /// Opens the named partial: a new one (replacing whatever is at `path`) from zero, else the
    /// existing one. Returns -1 with `errno` set when that fails. Readable too, for the
    /// checksum of a continued partial's first bytes.
    private static func openNamed(_ path: String, keepingFirst offset: Int64) -> Int32 {
        guard offset == 0 else { return open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor < 0, errno == EEXIST else { return descriptor }
        unlink(path)
        return open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    }

    /// Drops what follows the first `offset` bytes of a partial being continued, and positions
    /// writing there.
    private func cutToOffset(_ offset: Int64) throws(TransferFailure) {
        var info = stat()
        // On failure the descriptor is left to deinit, which runs for an init that throws
        // here: closing it here too would close a number another thread may have reused.
        // Checked again on the open file: a hard link put there since the size was read would
        // make the continued download write into the file it links to.
        guard fstat(descriptor, &info) == 0, Int64(info.st_size) >= offset, info.st_nlink == 1 else {
            throw TransferFailure(.disk, "the partial download \(path) changed while it was being continued")
        }
        guard Int64(info.st_size) == offset || ftruncate(descriptor, off_t(offset)) == 0,
              lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
        else {
            throw TransferFailure.diskError("cannot prepare", path)
        }
    }

    deinit {
        // The writer's thread may still be writing to the descriptor: it goes first.
        writer = nil
        if descriptor >= 0 { close(descriptor) }
    }

    /// Bytes free for this file on its filesystem, and the filesystem's size.
    var space: (available: Int64, size: Int64)? {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return nil }
        return (Int64(info.f_bavail) * Int64(info.f_frsize), Int64(info.f_blocks) * Int64(info.f_frsize))
    }

    /// Appends bytes; they reach the file in large blocks (see ``BlockWriter``), all of them
    /// by ``stage(modificationTime:)`` or ``keep()``.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransferFailure) {
        try writer?.append(bytes)
    }

    /// Writes out the last bytes and stamps the server's modification time on the file, which
    /// is whole and checked; a ``CommitGroup`` then makes it durable and puts it in place.
    /// The file stays open, as the staged file's descriptor: what is flushed and put in place
    /// is reached through it, so it is the file that was written and checked even if its name
    /// now leads elsewhere (and a file with no name would be deleted by closing it).
    /// `servedAt`: the name the server gave the file, where it goes unless something is
    /// there by then (see ``StagedFile/fallback``).
    func stage(modificationTime: Int64?, servedAt: String? = nil) throws(TransferFailure) -> StagedFile {
        try writer?.flush()
        writer = nil
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .diskError("cannot inspect", path) }
        if let modificationTime {
            var times = [timespec(tv_sec: time_t(modificationTime), tv_nsec: 0),
                         timespec(tv_sec: time_t(modificationTime), tv_nsec: 0)]
            futimens(descriptor, &times)
        }
        defer { descriptor = -1 }
        return StagedFile(partPath: path, destination: servedAt ?? destination, fallback: servedAt == nil ? nil : destination,
                          descriptor: descriptor, isUnnamed: isUnnamed, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Closes and deletes the partial.
    func discard() {
        writer = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(path)
    }

    /// Closes the partial and leaves it on disk to be resumed (a file with no name goes: it is
    /// too small to be worth resuming).
    func keep() {
        // What was written is what a resume continues from; a failed write only means less.
        try? writer?.flush()
        writer = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}

extension TransferFailure {
    /// A disk failure naming the file and the system's reason, from `errno`.
    static func diskError(_ action: String, _ path: String) -> TransferFailure {
        TransferFailure(.disk, "\(action) \(path): \(systemReason())")
    }
}
