import Glibc

/// Which files of a batch are known to have nothing on disk yet, neither the file nor its
/// partial, from one read of their folder (``FolderListing``) instead of two failed look-ups
/// each.
///
/// **The rule.** A folder is read when a batch plans at least ``fewestFiles`` files into it.
/// Its listing answers "nothing there" for a name it does not hold, only:
/// - within ``longestTrust`` of being read, or of being found unchanged since (the folder's
///   modification time, which every added, removed or renamed name sets, is as it was:
///   ``FolderListing/renew(at:)``); otherwise it is read again, and
/// - for the first question about that name: once asked, the name and its partial count as
///   possibly there for the rest of the listing's life, since the transfer that follows
///   may make them.
///
/// A listing that answered too few questions for the names it had to read is not read again
/// (see ``absence(of:)``): that folder's files are then looked up one by one.
///
/// syncagent itself makes names in a destination folder only through the transfer of that
/// very file (its partial, then its destination; a name its server gives is never another
/// file's, and staging names are never asked about), so with the second condition nothing
/// it makes is ever answered from a listing older than it.
///
/// **Why a stale answer loses nothing.** Another program may still make a file at a
/// destination after the folder was read. Answered "nothing there", the request is then
/// unconditional — exactly as when that file appears a moment after a look-up, during the
/// transfer — and the download is put in place as any download is:
/// `linkat` refuses to replace it, and the file is then renamed over the manifest's own
/// destination, the name it is for, never written through (a symbolic link there is
/// replaced, not followed). A name the server gave never replaces anything. A partial that
/// appeared is never continued on a stale answer: continuing needs the partial's recorded
/// version, and a request with one always looks the partial up (``Download``); without one,
/// a partial is only ever replaced by a new file, and the stale answer can at most leave a
/// `.part` that a later run finds and removes. The staleness is bounded: one second after
/// the folder was read or found unchanged, about what a small file's transfer takes.
final class DestinationListings {
    /// Folders with fewer planned files are looked up name by name: reading a folder costs
    /// a few system calls of its own.
    static let fewestFiles = 16

    /// How long a listing answers after it was read.
    static let longestTrust: Duration = .seconds(1)

    /// What a listing says of one destination.
    struct Absence: Equatable {
        /// Nothing at the destination's name.
        var file = false
        /// Nothing at its partial's name (``PartFile/path(for:)``).
        var partial = false
    }

    private let now: () -> ContinuousClock.Instant
    /// Folders a batch plans at least ``fewestFiles`` files into, and how many: the names
    /// its listing may have to note, room for which is made at once.
    private var worthListing: [String: Int] = [:]
    /// The listing of each folder. Swift compares strings by canonical equivalence, and
    /// two such folder names are two folders on Linux: a listing is used only for the folder
    /// its ``FolderListing/folder`` names byte for byte.
    private var listings: [String: FolderListing] = [:]
    /// The listing last asked: files of one folder come one after another.
    private var lastListing: FolderListing?

    init(now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.now = now
    }

    /// Takes note of the paths of files a batch is about to ask about: their folders are
    /// read on the first question if enough of them go there.
    func expect(_ paths: some Sequence<String>) {
        var run: (path: String, folder: Int)?
        var count = 0
        var counts: [String: Int] = [:]
        for path in paths {
            let folder = Self.folderLength(of: path)
            // Paths of one folder mostly come together: a dictionary step per run, not per
            // path, and bytes compared, not strings (whose comparison is canonical, and slow).
            let same = switch (folder, run) {
            case (nil, nil): true
            case (let folder?, let run?): folder == run.folder && Self.samePrefix(path, run.path, length: folder)
            default: false
            }
            if !same {
                if let run { counts[Self.prefix(run.path, length: run.folder), default: 0] += count }
                run = folder.map { (path, $0) }
                count = 0
            }
            count += 1
        }
        if let run { counts[Self.prefix(run.path, length: run.folder), default: 0] += count }
        for (folder, count) in counts where count >= Self.fewestFiles { worthListing[folder] = max(worthListing[folder] ?? 0, count) }
    }

    /// What a listing says of `path` and its partial; both `false` when no listing answers.
    /// The answer is given once per name (see the type's rule).
    func absence(of path: String) -> Absence {
        guard !worthListing.isEmpty, let length = Self.folderLength(of: path) else { return Absence() }
        let clock = now()
        let listing: FolderListing
        if let last = lastListing, length == last.folder.utf8.count, Self.samePrefix(path, last.folder, length: length),
           clock - last.readAt <= Self.longestTrust || last.renew(at: clock) {
            listing = last
        } else {
            let folder = Self.prefix(path, length: length)
            guard let planned = worthListing[folder] else { return Absence() }
            if let known = listings[folder], clock - known.readAt <= Self.longestTrust || known.renew(at: clock) {
                listing = known
            } else {
                let older = listings[folder]
                // A folder read again costs about 150 instructions a name it holds, and each
                // answer spares two look-ups (some 6,000 instructions, and the kernel's work):
                // one that answered fewer than a sixteenth of its names' worth in its second
                // is not read again (a slow batch, files arriving a few a second, into a big
                // folder; a batch's own folder, which grows with it, after some 16 seconds).
                if let older, older.answered * 16 < older.names {
                    worthListing[folder] = nil
                    listings[folder] = nil
                    lastListing = nil
                    return Absence()
                }
                guard let read = FolderListing.read(folder, at: clock, noting: planned) else {
                    // Not listable (see FolderListing): every name is looked up.
                    worthListing[folder] = nil
                    listings[folder] = nil
                    return Absence()
                }
                if let older, older.folder.utf8.count == length, Self.samePrefix(older.folder, read.folder, length: length) {
                    read.inheritNotes(of: older)
                }
                listing = read
                listings[folder] = read
            }
            guard listing.folder.utf8.count == length, Self.samePrefix(path, listing.folder, length: length) else { return Absence() }
            lastListing = listing
        }
        let utf8 = path.utf8
        let hashes = FolderListing.Hashes(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: length + 1)...]).utf8)
        let found = listing.mayHave(hashes)
        listing.noteMayHave(hashes)
        listing.answered += 1
        return Absence(file: !found.file, partial: !found.partial)
    }

    /// Whether the first `length` bytes of two strings are the same: a `memcmp` of their own
    /// UTF-8 buffers, where a generic `elementsEqual` of their views cost 2,400 instructions
    /// for a folder's path.
    private static func samePrefix(_ first: String, _ second: String, length: Int) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { a in
            second.withUTF8 { b in
                a.count >= length && b.count >= length && (length == 0 || memcmp(a.baseAddress!, b.baseAddress!, length) == 0)
            }
        }
    }

    /// The first `length` bytes of `path`, as a string.
    private static func prefix(_ path: String, length: Int) -> String {
        String(Substring(path.utf8.prefix(length)))
    }

    /// The length of the folder part of `path` (the bytes before the slash before its name),
    /// for a path with a name and a folder other than "/".
    private static func folderLength(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { bytes in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0, slash < bytes.count - 1 else { return nil }
            return slash
        }
    }
}
