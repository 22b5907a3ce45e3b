internal import CLinux
import Glibc

/// The names in one folder, read in one go (`getdents(2)` through `readdir`), to answer
/// "nothing of that name is there" for many files without a look-up each.
///
/// A look-up of a name that does not exist misses the kernel's name cache and makes the
/// filesystem search the folder for it (ext4: its hashed tree, then the names of one block).
/// A fetch of 10,000 new files made two such look-ups per file, its destination and its
/// partial, in a folder that fills as it goes: 14 % of the samples of that fetch. One read of
/// the folder answers them all.
///
/// Only absence is answered. A listed name, or one whose hash matches a listed name's, is
/// looked up as before; names are kept as 32-bit hashes, so a collision only costs that
/// look-up. A listing is taken only where the filesystem compares names byte for byte as
/// the listing does (not a case-folding or encrypted folder, not a filesystem whose rules
/// are not known here): elsewhere ``read(_:at:)`` gives `nil` and every name is looked up.
///
/// How long a listing may be believed is its owner's rule (``DestinationListings``).
final class FolderListing {
    /// The folder read.
    let folder: String
    /// When it was read, or last found unchanged (``renew(at:)``).
    private(set) var readAt: ContinuousClock.Instant
    /// The folder's filesystem, inode and modification time as it was read, when that time
    /// tells every later change (see ``read(_:at:)``).
    private var version: (device: UInt64, inode: UInt64, modified: timespec)?
    /// Open addressing on the hashes themselves; 0 marks a free slot (a hash of 0 is kept
    /// as 1). At most half full. A buffer of its own, not an array: asked twice per file, an
    /// array in a class paid an exclusivity check and a bounds check per slot looked at.
    private var slots: UnsafeMutableBufferPointer<UInt32>
    private var count = 0
    /// How many names the folder held when it was read.
    private(set) var names = 0
    /// How many questions this listing answered (see ``DestinationListings``).
    var answered = 0

    private init(folder: String, readAt: ContinuousClock.Instant, capacity: Int) {
        self.folder = folder
        self.readAt = readAt
        var size = 1024
        while size < capacity * 2 { size <<= 1 }
        slots = Self.zeroedSlots(size)
    }

    deinit {
        Self.release(slots)
    }

    /// `count` slots of 0, mapped rather than taken from `malloc`: a block this large freed
    /// back to glibc's `malloc` raises its threshold for giving memory back to the system, and
    /// the 10,000-file re-check kept 1.3 MB more for the rest of its run. Mapped pages also
    /// cost nothing until a hash lands in them.
    private static func zeroedSlots(_ count: Int) -> UnsafeMutableBufferPointer<UInt32> {
        guard let mapped = mmap(nil, count * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else {
            fatalError("out of memory for a folder listing of \(count) slots")
        }
        return UnsafeMutableBufferPointer(start: mapped.assumingMemoryBound(to: UInt32.self), count: count)
    }

    private static func release(_ slots: UnsafeMutableBufferPointer<UInt32>) {
        munmap(slots.baseAddress, slots.count * 4)
    }

    /// The names in `folder` now; an empty listing when there is no such folder (whatever
    /// is made in it later is made after `now`); `nil` when the folder cannot be read or its
    /// names are compared otherwise than by their bytes. Room is made at once for the names,
    /// or for `noting` (the files planned there, most of which a re-check finds listed), so
    /// the table is mapped once, not grown step by step (each step a new mapping to fill:
    /// 740 KB of page faults over a 10,000-file fetch).
    static func read(_ folder: String, at now: ContinuousClock.Instant, noting: Int = 0) -> FolderListing? {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? FolderListing(folder: folder, readAt: now, capacity: noting) : nil }
        guard comparesNamesByBytes(descriptor), let stream = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(stream) }
        var wallClock = timespec()
        clock_gettime(CLOCK_REALTIME, &wallClock)
        var info = stat()
        let known = fstat(descriptor, &info) == 0
        let listing = FolderListing(folder: folder, readAt: now, capacity: max(known ? Int(info.st_size) / 32 : 0, noting))
        // Adding, removing or renaming a name sets the folder's modification time, from a
        // clock that advances in ticks of at most 10 ms: one set more than two ticks before
        // the listing was read is older than any change that came after.
        let age = (Int64(wallClock.tv_sec) - Int64(info.st_mtim.tv_sec)) * 1_000_000_000 + Int64(wallClock.tv_nsec) - Int64(info.st_mtim.tv_nsec)
        if known, age > 20_000_000 {
            listing.version = (UInt64(info.st_dev), UInt64(info.st_ino), info.st_mtim)
        }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while true {
            errno = 0
            guard let entry = readdir(stream) else { break }
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            listing.insert(hash(UnsafeBufferPointer(start: name, count: strlen(name))))
            listing.names += 1
        }
        // A listing cut short by an error would claim that names past it are absent.
        return errno == 0 ? listing : nil
    }

    /// Whether the folder is as it was read, its names neither added, removed nor renamed
    /// (one `stat(2)` of the folder): if so the listing is as good as one read `now`.
    func renew(at now: ContinuousClock.Instant) -> Bool {
        guard let version else { return false }
        var info = stat()
        guard stat(folder, &info) == 0, UInt64(info.st_dev) == version.device, UInt64(info.st_ino) == version.inode,
              info.st_mtim.tv_sec == version.modified.tv_sec, info.st_mtim.tv_nsec == version.modified.tv_nsec
        else { return false }
        readAt = now
        return true
    }

    /// The hashes a listing keeps of a name and of its partial's name.
    struct Hashes {
        var name: UInt32
        /// `nil` for a name too long for the form `.NAME.part` (``PartFile/path(for:)``),
        /// whose partial has another form, never known absent.
        var partial: UInt32?

        init(_ name: Substring.UTF8View) {
            let hashes = name.withContiguousStorageIfAvailable { Hashes(bytes: $0) }
            self = hashes ?? Hashes(bytes: Array(name))
        }

        private init<Bytes: Collection<UInt8>>(bytes: Bytes) {
            name = FolderListing.hash(bytes)
            partial = bytes.count <= 255 - 6
                ? FolderListing.hash(".part".utf8, from: FolderListing.hash(bytes, from: FolderListing.hash(CollectionOfOne(UInt8(ascii: ".")))))
                : nil
        }
    }

    /// Whether look-ups of a name and of its partial could find something. A name noted
    /// (``noteMayHave(_:)``) may have a partial too.
    func mayHave(_ hashes: Hashes) -> (file: Bool, partial: Bool) {
        let name = find(hashes.name)
        return (name != nil, name.map { slots[$0] & Self.notedBit != 0 } == true || hashes.partial.map { find($0) != nil } ?? true)
    }

    /// From now on a name and its partial may be there: one slot marked, where keeping the
    /// partial's name as well took a second slot per file and grew the 10,000-file re-check's
    /// table past 128 KB.
    func noteMayHave(_ hashes: Hashes) {
        insert(hashes.name, noted: true)
    }

    /// Takes over the names an older listing of the same folder noted: a name asked about
    /// then may be made after this listing was read.
    func inheritNotes(of older: FolderListing) {
        for slot in older.slots where slot & Self.notedBit != 0 { insert(slot >> 1, noted: true) }
    }

    // MARK: Hashes

    private static let offsetBasis: UInt32 = 0x811C_9DC5

    /// FNV-1a, continued from `hash`.
    private static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, from hash: UInt32 = offsetBasis) -> UInt32 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    // MARK: The table

    /// A slot holds a hash's low 31 bits, shifted up, and this bit for a noted name; an empty
    /// slot is 0, so a hash whose 31 bits are 0 is kept as 1.
    private static let notedBit: UInt32 = 1

    private static func key(_ hash: UInt32) -> UInt32 {
        let bits = hash & 0x7FFF_FFFF
        return bits == 0 ? 1 : bits
    }

    /// The slot of `hash`, if it is in the table.
    private func find(_ hash: UInt32) -> Int? {
        let key = Self.key(hash)
        let slots = slots
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key &* 0x9E37_79B1) & mask
        while slots[index] != 0 {
            if slots[index] >> 1 == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    private func insert(_ hash: UInt32, noted: Bool = false) {
        let key = Self.key(hash)
        if (count + 1) * 2 > slots.count { grow() }
        let slots = slots
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key &* 0x9E37_79B1) & mask
        while slots[index] != 0 {
            if slots[index] >> 1 == key {
                if noted { slots[index] |= Self.notedBit }
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = key << 1 | (noted ? Self.notedBit : 0)
        count += 1
    }

    private func grow() {
        let old = slots
        slots = Self.zeroedSlots(old.count * 2)
        count = 0
        for slot in old where slot != 0 { insert(slot >> 1, noted: slot & Self.notedBit != 0) }
        Self.release(old)
    }

    // MARK: Filesystems

    /// Whether the folder's filesystem finds a name only by its exact bytes, as the listing
    /// compares them: ext4, btrfs, tmpfs or f2fs, in a folder neither case-folding (where
    /// "A.pdf" finds "a.pdf") nor encrypted.
    private static func comparesNamesByBytes(_ folder: Int32) -> Bool {
        var filesystem = statfs()
        guard fstatfs(folder, &filesystem) == 0 else { return false }
        let known: Set<UInt> = [0xEF53, 0x9123_683E, 0x0102_1994, 0xF2F5_2010]
        guard known.contains(UInt(truncatingIfNeeded: filesystem.f_type)) else { return false }
        var flags = 0
        // FS_IOC_GETFLAGS; FS_CASEFOLD_FL, FS_ENCRYPT_FL (linux/fs.h).
        guard ioctl(folder, 0x8008_6601, &flags) == 0 else { return false }
        return flags & (0x4000_0000 | 0x0000_0800) == 0
    }
}
