/// The saved records a batch read at once (``TransferLedger/readRecords(forPaths:urls:)``), by
/// path, until each is let go: in one array, found through a table of their places.
///
/// A dictionary of the records themselves keeps room for a third more than it holds, a whole
/// record each (112 bytes): 2 MB for a re-check of 10,000 files, 3.5 MB when records were
/// 200 bytes. Here the spare room is a table's of 20 bytes a path: 1.4 MB for the same. A
/// record let go is `nil` in the array at once, its strings freed; the array itself goes with
/// the last.
struct BatchRecords {
    private var places: [String: Int32] = [:]
    private var records: [FileRecord?] = []

    /// Whether no record is kept.
    var isEmpty: Bool { places.isEmpty }

    /// Makes room for `count` more records, so the storage is not grown (and copied) step by step.
    mutating func reserveCapacity(_ count: Int) {
        places.reserveCapacity(places.count + count)
        records.reserveCapacity(records.count + count)
    }

    /// The record kept for `path`.
    subscript(path: String) -> FileRecord? {
        places[path].flatMap { records[Int($0)] }
    }

    /// Keeps `record` under its path, in place of one kept before.
    mutating func insert(_ record: FileRecord) {
        let next = Int32(records.count)
        // `next` is stored when the path has no place yet.
        let place = places.inPlace(forKey: record.path, default: next) { $0 }
        if place == next {
            records.append(record)
        } else {
            records[Int(place)] = record
        }
    }

    /// Lets go of the record kept for `path`, and returns it; with the last, the storage too.
    mutating func remove(_ path: String) -> FileRecord? {
        guard let place = places.removeValue(forKey: path) else { return nil }
        defer {
            records[Int(place)] = nil
            if places.isEmpty { self = BatchRecords() }
        }
        return records[Int(place)]
    }
}
