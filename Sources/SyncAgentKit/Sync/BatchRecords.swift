/// What the ledger knows of a batch's files, by path: the saved records it read at once
/// (``TransferLedger/readRecords(forPaths:urls:)``), the paths read with none, and the records
/// changed since the last save, each until it is let go.
///
/// One table for all three: a file's record is looked for once whatever it is, where a table
/// of changes beside one of saved records and a set of paths with none took up to three
/// searches of a path, some 450 instructions each, five times a file. A changed record keeps
/// its place and the record it replaced (``Change/before``), so a save still tells a record
/// whose result alone changed.
///
/// A dictionary of the records themselves keeps room for a third more than it holds, a whole
/// record each (112 bytes): 2 MB for a re-check of 10,000 files, 3.5 MB when records were
/// 200 bytes. Here the spare room is a table's of 20 bytes a path, a path read with no record
/// is only that, and a record let go is `nil` in the array at once, its strings freed, its
/// place taken by the next change; the array itself goes with the last path.
struct BatchRecords {
    /// Each path's place in ``records``, or ``noRecord`` for a path read with none.
    private var places: [String: Int32] = [:]
    /// The record at each place: as saved, or as changed since; `nil` once let go.
    private var records: [FileRecord?] = []
    /// Whether the record at each place changed since the last ``takeChanges(_:)``.
    private var changed: [Bool] = []
    /// Places let go, for the next changes to take before the array grows.
    private var free: [Int32] = []
    /// The changes not yet taken, in the order of their first change.
    private var changes: [Change] = []

    /// The place of a path read with no record: it has none in the array.
    private static let noRecord: Int32 = -1

    /// A record changed since the last ``takeChanges(_:)``: where it is, and what it replaced.
    struct Change {
        fileprivate var place: Int32
        /// The record as read before its first change; `nil` when none was read.
        var before: FileRecord?
    }

    /// Whether nothing is kept: no record, no path, no change.
    var isEmpty: Bool { places.isEmpty }

    /// How many records changed since the last ``takeChanges(_:)``.
    var changeCount: Int { changes.count }

    /// Makes room for `count` more paths, so the storage is not grown (and copied) step by step;
    /// `withRecords`: room in the array of records as well, for paths that have them.
    mutating func reserveCapacity(_ count: Int, withRecords: Bool = true) {
        places.reserveCapacity(places.count + count)
        if withRecords {
            records.reserveCapacity(records.count + count)
            changed.reserveCapacity(changed.count + count)
        }
    }

    /// What is known of `path`: `nil` when nothing (ask the store), `.some(nil)` when it was
    /// read with no record, else its record as saved or changed.
    subscript(path: String) -> FileRecord?? {
        guard let place = places[path] else { return nil }
        return place == Self.noRecord ? .some(nil) : .some(records[Int(place)])
    }

    /// Whether anything is known of `path`.
    func knows(_ path: String) -> Bool {
        places[path] != nil
    }

    /// Keeps `record` as read, under its path, in place of what was known before.
    mutating func insert(_ record: consuming FileRecord) {
        let next = Int32(records.count)
        // `next` is stored when the path has no place yet, or none in the array.
        let place = places.inPlace(forKey: record.path, default: next) { place in
            if place == Self.noRecord { place = next }
            return place
        }
        if place == next {
            records.append(consume record)
            changed.append(false)
        } else {
            records[Int(place)] = consume record
        }
    }

    /// Notes that `path` was read with no record, unless something is known of it.
    mutating func insertAbsent(_ path: String) {
        places.inPlace(forKey: path, default: Self.noRecord) { _ in }
    }

    /// Changes the record of `path` with `body`: the record known, or when nothing is known
    /// the one `unknown` gives (the store's), made new by `start` when it is not for this file
    /// (`start` gets the record known, `nil` for none). The path is searched for once when
    /// something is known of it, as it is for every file of a batch that read its records.
    ///
    /// Records are moved, not copied, from where they are to where they go: the record before a
    /// change is copied once, into the changed one (each copy of a record retains and releases
    /// its strings, and this ran five a file).
    mutating func change<Failure: Error>(
        _ path: String, unknown: () throws(Failure) -> FileRecord?, start: (consuming FileRecord?) -> FileRecord,
        _ body: (inout FileRecord) -> Void
    ) throws(Failure) {
        if let index = places.index(forKey: path) {
            let place = places.values[index]
            if place != Self.noRecord, changed[Int(place)] {
                // Changed before: changed again in place, its record as read already noted.
                var record = start(records[Int(place)].take())
                body(&record)
                records[Int(place)] = consume record
                return
            }
            // Taken out: the changed record takes its place below.
            let before = place == Self.noRecord ? nil : records[Int(place)].take()
            let into = place == Self.noRecord ? takePlace() : place
            places.values[index] = into
            note(start(before), before: before, at: into, body)
            return
        }
        let before = try unknown()
        let into = takePlace()
        places[path] = into
        note(start(before), before: before, at: into, body)
    }

    /// Keeps `record` changed by `body` at `place`, as a change from `before`.
    private mutating func note(_ record: consuming FileRecord, before: consuming FileRecord?, at place: Int32, _ body: (inout FileRecord) -> Void) {
        body(&record)
        records[Int(place)] = consume record
        changed[Int(place)] = true
        changes.append(Change(place: place, before: before))
    }

    /// A place in the array for a new record: one let go, else a new one at the end.
    private mutating func takePlace() -> Int32 {
        if let place = free.popLast() { return place }
        records.append(nil)
        changed.append(false)
        return Int32(records.count - 1)
    }

    /// Hands every change since the last call to `body`, with the record it replaced, and lets
    /// go of the paths changed: once saved, a record is the store's to answer for (one query,
    /// if anybody asks again), so a batch does not keep one for every file it finished. With
    /// the last path, the storage goes too. Handed over one by one, not as an array: a
    /// thousand changes with their records before would be 0.25 MB made and freed for each
    /// save, and glibc would then shrink and grow its heap around it.
    /// The records are handed over, not copied: `body` owns each.
    mutating func takeChanges(_ body: (_ record: consuming FileRecord, _ before: consuming FileRecord?) -> Void) {
        guard !changes.isEmpty else { return }
        for index in changes.indices {
            let place = Int(changes[index].place)
            guard let record = records[place].take() else { continue }
            changed[place] = false
            places.removeValue(forKey: record.path)
            free.append(changes[index].place)
            body(record, changes[index].before.take())
        }
        // Its room kept for the next changes (a thousand at most, see TransferLedger.mostUnsaved):
        // grown again from nothing, it was copied at each doubling.
        changes.removeAll(keepingCapacity: true)
        if places.isEmpty { self = BatchRecords() }
    }
}
