import Foundation
import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// What the ledger asks the server for each file, and what it remembers of each event, on a
/// real state database in a temporary folder.
final class TransferLedgerTests {
    let folder: TemporaryDirectory
    let store: StateStore
    let ledger: TransferLedger
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let retry = Manifest.RetryPolicy(attempts: 3, initialBackoff: .seconds(10), maximumBackoff: .seconds(600))

    init() throws {
        folder = try TemporaryDirectory(prefix: "ledger")
        store = try StateStore(directory: folder.appending("state"))
        ledger = TransferLedger(store: store, now: { [now] in now }, unitRandom: { 0 })
    }

    deinit { folder.remove() }

    var path: String { folder.appending("a.pdf") }
    let entry = Manifest.Entry(title: "A", url: "https://example.org/a.pdf", path: "a.pdf")

    func request() throws -> TransferRequest {
        try ledger.request(id: 0, for: entry, at: path, root: folder.path)
    }

    func transfer() throws -> InFlightTransfer {
        InFlightTransfer(try request(), title: entry.title, path: path)
    }

    func finish(_ outcome: TransferOutcome, validators: Validators? = nil) throws {
        try ledger.record(.finished(id: 0, TransferCompletion(outcome: outcome, validators: validators)), of: try transfer(), retry: retry)
    }

    @Test func keepsChangesInMemoryUntilSavedInOneGo() throws {
        #expect(ledger.saveDeadline == nil)
        try finish(.downloaded(bytes: 10), validators: Validators(etag: "\"v1\""))

        #expect(try store.record(forPath: path) == nil)
        #expect(try ledger.record(for: entry, at: path)?.validators.etag == "\"v1\"")
        let deadline = try #require(ledger.saveDeadline)
        #expect(deadline <= ContinuousClock.now + TransferLedger.saveInterval)

        try ledger.saveChanges()

        #expect(try store.record(forPath: path)?.lastResult == LastResult(kind: .downloaded, date: now))
        #expect(ledger.saveDeadline == nil)
    }

    /// A fast batch does not keep thousands of changes in memory until the interval is over.
    @Test func aThousandChangesAreDueAtOnce() throws {
        let entries = (0..<TransferLedger.mostUnsaved).map { Manifest.Entry(title: "F\($0)", url: "https://example.org/f\($0)", path: "f\($0)") }
        func finish(_ place: Int) throws {
            let entry = entries[place], path = folder.appending(entry.path)
            let request = try ledger.request(id: place, for: entry, at: path, root: folder.path)
            try ledger.record(.finished(id: place, TransferCompletion(outcome: .downloaded(bytes: 1))),
                              of: InFlightTransfer(request, title: entry.title, path: path), retry: retry)
        }
        for place in entries.indices.dropLast() { try finish(place) }
        let first = try #require(ledger.saveDeadline)
        #expect(first > ContinuousClock.now)
        try ledger.saveChangesIfDue(at: .now)
        #expect(try store.record(forPath: folder.appending("f0")) == nil, "not yet due")

        try finish(entries.count - 1)
        let deadline = try #require(ledger.saveDeadline)
        #expect(deadline < first)
        try ledger.saveChangesIfDue(at: deadline)
        #expect(ledger.saveDeadline == nil)
        #expect(try store.records().count == entries.count)
    }

    @Test func aRecordReadForABatchIsLetGoOnceItsChangeIsSavedAndTheStoreAnswersAfter() throws {
        try store.saveTransferResults([FileRecord(path: path, url: entry.url, validators: Validators(etag: "\"v1\""))])
        try ledger.readRecords(forPaths: [path])
        try finish(.unchanged, validators: Validators(etag: "\"v1\""))
        try ledger.saveChanges()
        #expect(try store.record(forPath: path)?.lastResult?.kind == .unchanged)

        // Changed behind the ledger's back: it keeps no copy, so it reads the store's.
        try store.saveTransferResults([FileRecord(path: path, url: entry.url, validators: Validators(etag: "\"v2\""))])
        #expect(try ledger.record(for: entry, at: path)?.validators.etag == "\"v2\"")
    }

    @Test func readsTheRecordsOfABigBatchInSeveralQueriesAndAnswersFromWhatItRead() throws {
        let names = (0..<(2 * TransferLedger.recordsPerQuery + 500)).map { "f\($0).pdf" }
        let url = { (name: String) in "https://example.org/\(name)" }
        try store.save(names.map { FileRecord(path: folder.appending($0), url: url($0), size: 1) })
        try ledger.readRecords(forPaths: names.map { folder.appending($0) } + [folder.appending("none.pdf")])

        // Changed behind its back: it does not look again until it saves a change.
        try store.save(names.map { FileRecord(path: folder.appending($0), url: url($0), size: 2) })
        try store.save(FileRecord(path: folder.appending("none.pdf"), url: url("none.pdf"), size: 2))
        for name in [names[0], names[TransferLedger.recordsPerQuery - 1], names[TransferLedger.recordsPerQuery], names[names.count - 1]] {
            let entry = Manifest.Entry(title: name, url: url(name), path: name)
            #expect(try ledger.record(for: entry, at: folder.appending(name))?.size == 1)
        }
        #expect(try ledger.record(for: Manifest.Entry(title: "none", url: url("none.pdf"), path: "none.pdf"), at: folder.appending("none.pdf")) == nil)
    }

    @Test func aDownloadRecordsItsVersionAndSizeAndClearsFailures() throws {
        try finish(.failed(TransferFailure(.network, "the connection was lost")))
        try finish(.downloaded(bytes: 1_234), validators: Validators(etag: "\"v2\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"))

        let record = try #require(try ledger.record(for: entry, at: path))
        #expect(record.validators == Validators(etag: "\"v2\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"))
        #expect(record.size == 1_234)
        #expect(record.failedAttempts == 0)
        #expect(record.nextAttempt == nil)
    }

    @Test func aTransientFailureIsRetriedWithBackoffAndAPermanentOneIsNot() throws {
        try finish(.failed(TransferFailure(.serverError, "the server answered 503")))
        var record = try #require(try ledger.record(for: entry, at: path))
        #expect(record.failedAttempts == 1)
        #expect(record.nextAttempt == now.addingTimeInterval(5))
        #expect(record.lastResult?.message == "the server answered 503")

        try finish(.failed(TransferFailure(.notFound, "the server answered 404 Not Found")))
        record = try #require(try ledger.record(for: entry, at: path))
        #expect(record.failedAttempts == 2)
        #expect(record.nextAttempt == nil)
    }

    @Test func aNewURLAtTheSamePathStartsAfresh() throws {
        try finish(.downloaded(bytes: 10), validators: Validators(etag: "\"v1\""))
        let moved = Manifest.Entry(title: "A", url: "https://example.org/elsewhere.pdf", path: "a.pdf")

        #expect(try ledger.record(for: moved, at: path) == nil)
    }

    @Test func asksForTheSavedVersionOfAFileOnDiskOfTheSavedSize() throws {
        try Data(count: 10).write(to: URL(fileURLWithPath: path))
        try finish(.downloaded(bytes: 10), validators: Validators(etag: "\"v1\""))

        #expect(try request().current == Validators(etag: "\"v1\""))
    }

    @Test func withoutUsableStateAsksByTheFilesModificationTime() throws {
        try Data(count: 10).write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: 784_887_151, tv_nsec: 0), timespec(tv_sec: 784_887_151, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)

        #expect(try request().current == Validators(lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"))
    }

    @Test func aFileNotOnDiskIsAskedForWhole() throws {
        try finish(.downloaded(bytes: 10), validators: Validators(etag: "\"v1\""))

        #expect(try request().current.isEmpty)
    }

    /// A batch of many files in one folder is answered from one read of it: a file with
    /// nothing on disk is asked for whole and its download does not look for a partial; a
    /// file on disk is still asked for by its date, and a partial there is still looked at.
    @Test func aBatchOfManyFilesInOneFolderIsAnsweredFromOneReadOfIt() throws {
        let entries = (0..<DestinationListings.fewestFiles).map {
            Manifest.Entry(title: "F\($0)", url: "https://example.org/f\($0).pdf", path: "f\($0).pdf")
        }
        let paths = entries.map { folder.appending($0.path) }
        try Data(count: 10).write(to: URL(fileURLWithPath: paths[1]))
        var times = [timespec(tv_sec: 784_887_151, tv_nsec: 0), timespec(tv_sec: 784_887_151, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, paths[1], &times, 0) == 0)
        try Data(count: 10).write(to: URL(fileURLWithPath: PartFile.path(for: paths[2])))
        try ledger.readRecords(forPaths: paths)

        let new = try ledger.request(id: 0, for: entries[0], at: paths[0], root: folder.path)
        #expect(new.current.isEmpty && new.noPartialOnDisk)
        let onDisk = try ledger.request(id: 1, for: entries[1], at: paths[1], root: folder.path)
        #expect(onDisk.current == Validators(lastModified: "Tue, 15 Nov 1994 08:12:31 GMT") && onDisk.noPartialOnDisk)
        let withPartial = try ledger.request(id: 2, for: entries[2], at: paths[2], root: folder.path)
        #expect(!withPartial.noPartialOnDisk)
    }

    @Test func recordsTheVersionOfEveryPartialWithANameAndNoneOfSmallNewFiles() throws {
        let version = Validators(etag: "\"v1\"")
        try ledger.record(.receiving(id: 0, validators: version, offset: 0, expectedLength: 700_000), of: try transfer(), retry: retry)
        #expect(try ledger.record(for: entry, at: path)?.partial == version)

        let small = Manifest.Entry(title: "S", url: "https://example.org/s.pdf", path: "s.pdf")
        let smallRequest = try ledger.request(id: 1, for: small, at: folder.appending("s.pdf"), root: folder.path)
        try ledger.record(.receiving(id: 1, validators: version, offset: 0, expectedLength: PartFile.largestUnnamedLength), of: InFlightTransfer(smallRequest, title: small.title, path: smallRequest.destination), retry: retry)
        #expect(try ledger.record(for: small, at: folder.appending("s.pdf")) == nil)
    }
}
