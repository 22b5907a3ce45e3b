import FoundationEssentials

/// The saved records a batch read at once (``TransferLedger/readRecords(forPaths:urls:)``), by
/// path, until each is let go: in one array, found through a table of their places.
///
/// A dictionary of the records themselves keeps room for a third more than it holds, 200 bytes
/// a record: 3.5 MB for a re-check of 10,000 files, most of what that re-check holds at its
/// peak. Here the spare room is a table's of 20 bytes a path, and each record is kept in 96
/// bytes (``Kept``): 1.3 MB for the same. A record let go is `nil` in the array at once, its
/// strings freed; the array itself goes with the last.
struct BatchRecords {
    private var places: [String: Int32] = [:]
    private var records: [Kept?] = []

    /// Whether no record is kept.
    var isEmpty: Bool { places.isEmpty }

    /// Makes room for `count` more records, so the storage is not grown (and copied) step by step.
    mutating func reserveCapacity(_ count: Int) {
        places.reserveCapacity(places.count + count)
        records.reserveCapacity(records.count + count)
    }

    /// The record kept for `path`.
    subscript(path: String) -> FileRecord? {
        places[path].flatMap { records[Int($0)]?.record(at: path) }
    }

    /// Keeps `record` under its path, in place of one kept before.
    mutating func insert(_ record: FileRecord) {
        let next = Int32(records.count)
        // One search of the table, which stores `next` when the path has no place yet.
        let place = Self.stored(&places[record.path, default: next])
        if place == next {
            records.append(Kept(record))
        } else {
            records[Int(place)] = Kept(record)
        }
    }

    /// The value an `inout` access found or stored (see ``insert(_:)``).
    private static func stored(_ value: inout Int32) -> Int32 { value }

    /// Lets go of the record kept for `path`, and returns it; with the last, the storage too.
    mutating func remove(_ path: String) -> FileRecord? {
        guard let place = places.removeValue(forKey: path) else { return nil }
        defer {
            records[Int(place)] = nil
            if places.isEmpty { self = BatchRecords() }
        }
        return records[Int(place)]?.record(at: path)
    }

    /// A ``FileRecord`` without its path (the table's key), what few records have (a partial,
    /// a server's name, a retry time, a failure's message) in a box of its own: 96 bytes
    /// instead of 200 for the record of a file downloaded or found unchanged.
    private struct Kept {
        var url: String
        var validators: Validators
        var size: Int64?
        var failedAttempts: Int
        var lastResultDate: Date
        var lastResultKind: LastResult.Kind?
        var hold: Hold?
        var rare: Rare?

        /// The fields most records leave empty.
        final class Rare {
            let partial: Validators?
            let partialLength: Int64?
            let servedName: String?
            let nextAttempt: Date?
            let lastResultMessage: String?

            init(partial: Validators?, partialLength: Int64?, servedName: String?, nextAttempt: Date?, lastResultMessage: String?) {
                self.partial = partial
                self.partialLength = partialLength
                self.servedName = servedName
                self.nextAttempt = nextAttempt
                self.lastResultMessage = lastResultMessage
            }
        }

        init(_ record: FileRecord) {
            url = record.url
            validators = record.validators
            size = record.size
            failedAttempts = record.failedAttempts
            lastResultDate = record.lastResult?.date ?? Date(timeIntervalSinceReferenceDate: 0)
            lastResultKind = record.lastResult?.kind
            hold = record.hold
            let message = record.lastResult?.message
            let isRare = record.partial != nil || record.partialLength != nil || record.servedName != nil
                || record.nextAttempt != nil || message != nil
            rare = isRare ? Rare(partial: record.partial, partialLength: record.partialLength, servedName: record.servedName,
                                 nextAttempt: record.nextAttempt, lastResultMessage: message) : nil
        }

        /// The whole record again, kept at `path`.
        func record(at path: String) -> FileRecord {
            FileRecord(
                path: path, url: url, validators: validators, size: size, partial: rare?.partial,
                failedAttempts: failedAttempts,
                lastResult: lastResultKind.map { LastResult(kind: $0, message: rare?.lastResultMessage, date: lastResultDate) },
                nextAttempt: rare?.nextAttempt, hold: hold, servedName: rare?.servedName, partialLength: rare?.partialLength
            )
        }
    }
}
