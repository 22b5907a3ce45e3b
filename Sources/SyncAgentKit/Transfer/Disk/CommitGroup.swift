import Glibc

/// Whole, checked downloads put in place together, with two flushes for the group instead of
/// two per file ("group commit").
///
/// Putting one file in place safely takes a flush of its data before the rename and a flush of
/// its folder after it. On a disk each is a device cache flush and a synchronous metadata
/// write (about 0.3 ms here), so 10,000 small files one by one spend seconds in flushes and
/// little in transfers. A group pays that once, in this order:
///
/// 1. the data of every file in the group is made durable (``FileSystem/makeDurable(_:)``);
/// 2. only then is each renamed over its destination, so after a crash at any instant a
///    destination holds the old version or the whole new one, never a half;
/// 3. the renames are made durable, one flush per folder;
/// 4. only then does the engine report the files done — which is when the ledger saves them
///    as done: the state never says "done" of a file a crash could still take back.
///
/// A file waits at most ``longestWait`` for others to join its group, and not at all when no
/// other transfer is running. The group gathers on the engine's thread; ``putInPlace(_:)``
/// runs on the ``CommitThread``, while the engine goes on with other transfers.
struct CommitGroup {
    /// One download waiting in the group.
    struct Member {
        /// The engine's id of the request.
        let id: Int
        var file: StagedFile
        let size: Int64
        let validators: Validators
    }

    /// The longest a finished download waits for others before the group is put in place: a
    /// tenth of a second is not noticeable to anyone watching, and gathers hundreds of small
    /// files when they arrive fast.
    static let longestWait: Duration = .milliseconds(100)

    /// The most files in one group. Each waiting file costs a name and a few bytes; beyond a
    /// few hundred, one more flush costs less than the wait.
    static let largest = 256

    private(set) var members: [Member] = []
    private var oldest: ContinuousClock.Instant?

    var isEmpty: Bool { members.isEmpty }

    /// The ids of the waiting members.
    var ids: [Int] { members.map(\.id) }

    /// When the waiting members must be put in place at the latest; `nil` when none waits.
    var deadline: ContinuousClock.Instant? { oldest.map { $0 + Self.longestWait } }

    /// Adds a finished download; `now` starts the group's clock if it is the first.
    mutating func add(_ member: consuming Member, at now: ContinuousClock.Instant) {
        if members.isEmpty { oldest = now }
        members.append(member)
    }

    /// Whether to put the waiting members in place now: the group is full, the oldest has
    /// waited long enough, or no other transfer is running or waiting that could join it soon.
    func isDue(at now: ContinuousClock.Instant, moreComing: Bool) -> Bool {
        guard let oldest else { return false }
        return !moreComing || members.count >= Self.largest || now >= oldest + Self.longestWait
    }

    /// What the engine does with the gathering group, given whether the ``CommitThread`` is
    /// still putting an earlier one in place.
    enum Next: Equatable {
        /// Let it gather: not due, or due while an earlier group is put in place — fewer,
        /// larger groups, two flushes each.
        case gather
        /// Hand it to the commit thread.
        case handOver
        /// Wait for the earlier group, then hand this one over. A full group waits rather
        /// than queue behind the other: no more than two groups hold their files open at
        /// once (512 descriptors, under the 1,024 a desktop session allows a process).
        case waitThenHandOver
    }

    /// What to do with the group now (see ``Next``).
    func next(at now: ContinuousClock.Instant, moreComing: Bool, committerBusy: Bool) -> Next {
        guard isDue(at: now, moreComing: moreComing) else { return .gather }
        guard committerBusy else { return .handOver }
        if members.count >= Self.largest { return .waitThenHandOver }
        // Nothing more is coming: it may as well queue behind the other.
        return moreComing ? .gather : .handOver
    }

    /// Takes the waiting members out of the group, to be put in place.
    mutating func takeMembers() -> [Member] {
        defer {
            members = []
            oldest = nil
        }
        return members
    }

    /// Steps 1–3 above: makes every member's data durable, renames each into place, makes the
    /// renames durable. Returns each member with why it could not be put in place, or `nil`
    /// when it was. A member that fails has its partial deleted; the old version, if any, stays.
    ///
    /// Each member is copied once, into its result, and read in place otherwise: the group
    /// copied as it was changed, and copied again into the results, was three copies of five
    /// strings each.
    static func putInPlace(_ group: [Member]) -> [(member: Member, failure: TransferFailure?)] {
        defer { for index in group.indices { group[index].file.close() } }
        var failures = FileSystem.makeDurable(group.map { $0.file.durableItem })
        var folders: [String: UInt64] = [:]
        var results: [(member: Member, failure: TransferFailure?)] = []
        results.reserveCapacity(group.count)
        for index in group.indices {
            var member = group[index]
            if failures[member.file.partPath] == nil {
                do {
                    try member.file.moveIntoPlace()
                    folders[splitPath(member.file.destination).folder] = member.file.device
                } catch {
                    failures[member.file.partPath] = error
                }
            }
            results.append((consume member, nil))
        }
        let folderFailures = FileSystem.makeDurable(folders.map { ($0.key, nil, $0.value) })
        for index in results.indices {
            if let failure = failures[results[index].member.file.partPath] {
                results[index].member.file.removePartial()
                results[index].failure = failure
            } else if !folderFailures.isEmpty {
                results[index].failure = folderFailures[splitPath(results[index].member.file.destination).folder]
            }
        }
        return results
    }
}

/// A whole, checked download waiting to be put in place, in a file held open (see
/// ``PartFile``), which ``CommitGroup/putInPlace(_:)`` closes.
///
/// What goes in place is the file behind the descriptor, the one whose bytes were written and
/// checked, never whatever its partial's name leads to by then: another program (or anything
/// else) that replaced or deleted the partial in the meantime makes the step fail instead of
/// putting unchecked bytes under the destination's name.
struct StagedFile {
    let partPath: String
    /// Where the file goes; after ``moveIntoPlace()``, where it went.
    private(set) var destination: String
    /// Set when ``destination`` is a name the server chose: such a name never replaces a
    /// file, and when one is there the file goes here instead (the request's own name).
    private(set) var fallback: String?
    /// The open file.
    let descriptor: Int32
    /// Whether the file has no name (`O_TMPFILE`); otherwise it is at ``partPath``.
    let isUnnamed: Bool
    /// The filesystem the file is on (`st_dev`): one flush per filesystem covers every file
    /// on it.
    let device: UInt64
    /// The file's inode, to tell it from anything else put at its name.
    let inode: UInt64

    /// What ``FileSystem/makeDurable(_:)`` flushes for this file: the open file itself.
    var durableItem: FileSystem.DurableItem { (partPath, descriptor, device) }

    /// Gives the file its destination's name in one step, replacing an older version.
    ///
    /// The open file is linked to the destination's name (``OpenFileLink``, which names exactly
    /// this inode and fails if it has been deleted). `linkat` never replaces: when an older
    /// version is there, the file gets a fresh name first, of the staging form
    /// `..syncagent-RANDOM.part.part` that no entry's file or partial can have
    /// (``StagingName``), and that name is renamed over the destination. Without `/proc`, the
    /// named partial is renamed after checking it is still this file.
    mutating func moveIntoPlace() throws(TransferFailure) {
        if let fallback {
            if try linkWithoutReplacing() { return }
            destination = fallback
            self.fallback = nil
        }
        guard OpenFileLink.isAvailable else {
            guard !isUnnamed, let found = FileSystem.identity(at: partPath), found == (device, inode) else { throw replaced }
            guard rename(partPath, destination) == 0 else { throw .diskError("cannot put in place", destination) }
            return
        }
        let folder = splitPath(destination).folder
        // A new file (the usual case for a first download): one step.
        if OpenFileLink.link(descriptor, to: destination) {
            if !isUnnamed { removePartial() }
            return
        }
        if errno == ENOENT && FileSystem.identity(at: folder) != nil { throw replaced }
        guard errno == EEXIST else { throw .diskError("cannot put in place", destination) }
        while true {
            let fresh = folder + "/..syncagent-" + PartFile.hexadecimal(UInt64.random(in: .min ... .max)) + StagingName.suffix + StagingName.suffix
            if OpenFileLink.link(descriptor, to: fresh) {
                guard rename(fresh, destination) == 0 else {
                    let failure = TransferFailure.diskError("cannot put in place", destination)
                    unlink(fresh)
                    throw failure
                }
                break
            }
            // The file was deleted (its name replaced by another file): it has no bytes to give.
            if errno == ENOENT && FileSystem.identity(at: folder) != nil { throw replaced }
            guard errno == EEXIST else { throw .diskError("cannot put in place", destination) }
        }
        if !isUnnamed { removePartial() }
    }

    /// Gives the file the name ``destination`` only if nothing has it; `false` when something
    /// does (a file, a folder, a link), which is left as it is.
    private func linkWithoutReplacing() throws(TransferFailure) -> Bool {
        let linked: Bool
        if OpenFileLink.isAvailable {
            linked = OpenFileLink.link(descriptor, to: destination)
        } else {
            guard !isUnnamed, let found = FileSystem.identity(at: partPath), found == (device, inode) else { throw replaced }
            linked = link(partPath, destination) == 0
        }
        guard linked else {
            guard errno == EEXIST else { throw .diskError("cannot put in place", destination) }
            return false
        }
        if !isUnnamed { removePartial() }
        return true
    }

    /// Why a file cannot be put in place when its partial was replaced or deleted.
    private var replaced: TransferFailure {
        TransferFailure(.disk, "the partial download \(partPath) was replaced or deleted by another program before it could be put in place; \(destination) was left as it was")
    }

    /// Deletes the partial's name if it still is this file, and leaves anything else there.
    func removePartial() {
        guard !isUnnamed, let found = FileSystem.identity(at: partPath), found == (device, inode) else { return }
        unlink(partPath)
    }

    /// Closes the file; a file with no name not put in place by then is gone with it.
    func close() {
        Glibc.close(descriptor)
    }
}
