import Foundation
import Testing
@testable import SyncAgentKit

/// The prune against a real SQLite file: what leaves the tables and what stays — a live feed's
/// tombstones, a held record, another manifest's records sharing the state — and that it runs
/// at most once a day, remembered in the state.
final class StateStorePruneTests {
    let root = FileManager.default.temporaryDirectory.path + "/syncagent-prune-\(UUID().uuidString)"
    var directory: String { root + "/state" }
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 86_400
    let policy = RecordRetention.standard

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func file(_ path: String, checked: Date?, hold: Hold? = nil, partial: Validators? = nil) -> FileRecord {
        FileRecord(path: path, url: "http://127.0.0.1/\(path)", validators: Validators(etag: "\"1\""), size: 10, partial: partial,
                   lastResult: checked.map { LastResult(kind: .unchanged, date: $0) }, hold: hold)
    }

    /// Saves a feed checked at `checked` with two episodes, the second deleted (a tombstone),
    /// and the first one's file record.
    @discardableResult
    private func saveFeed(_ folder: String, checked: Date, in store: StateStore) throws -> [Int64] {
        let items = (1...2).map {
            FeedItem(title: "Episode \($0)", guid: "\(folder)-\($0)", published: FeedDate(secondsSince1970: 1_700_000_000 + Int64($0)),
                     enclosures: [FeedEnclosure(url: "https://cdn.example.org\(folder)/\($0).mp3", mediaType: "audio/mpeg", length: 100)])
        }
        let settings = Manifest.Feed(title: "F", url: "https://example.org\(folder).rss", folder: "F", first: .newest(2))
        var update = FeedUpdate.plan(Feed(title: "F", items: items), known: [], settings: settings, firstSight: true, now: checked)
        let ids = try store.saveFeedUpdate(update, record: FeedRecord(folder: folder, url: settings.url, lastCheck: checked))
        update = FeedUpdate()
        update.deleted = [ids[1]]
        try store.saveFeedUpdate(update, record: FeedRecord(folder: folder, url: settings.url, lastCheck: checked))
        try store.save(file(folder + "/episode 1.mp3", checked: checked))
        return ids
    }

    private func paths(in store: StateStore) throws -> [String] { try store.records().map(\.path) }

    private func count(_ table: String, in store: StateStore) throws -> SQLiteValue? {
        try store.database.singleValue("SELECT count(*) FROM \(table)")
    }

    /// Prunes at `now`; a state never pruned is first given its first day, a day before.
    private func prune(_ store: StateStore, files: [String] = [], feeds: [String] = [], at now: Date,
                       partials: [String: Date] = [:]) throws -> RecordRetention.Verdict? {
        if try store.lastPrune() == nil {
            #expect(try store.pruneRecordsIfDue(ownedBy: [], feeds: [], retention: policy, now: now - day, partialTouched: { _ in nil }).verdict == nil)
        }
        return try store.pruneRecordsIfDue(ownedBy: files, feeds: feeds, retention: policy, now: now, partialTouched: { partials[$0] }).verdict
    }

    @Test func recordsLeaveOnlyWhenNoEntryOwnsThemAndTheyAreOld() throws {
        let store = try StateStore(directory: directory)
        try store.save([
            file("/d/kept.pdf", checked: start),
            file("/d/removed-long-ago.pdf", checked: start),
            file("/d/removed-lately.pdf", checked: start + 80 * day),
            file("/d/stopped.pdf", checked: start, hold: .stopped),
            file("/d/paused.pdf", checked: nil, hold: .paused, partial: Validators(etag: "\"2\"")),
            file("/d/never-finished.pdf", checked: nil),
        ])

        let verdict = try prune(store, files: ["/d/kept.pdf"], at: start + 100 * day)

        #expect(verdict == .init(files: ["/d/never-finished.pdf", "/d/removed-long-ago.pdf"]))
        #expect(try paths(in: store) == ["/d/kept.pdf", "/d/paused.pdf", "/d/removed-lately.pdf", "/d/stopped.pdf"])
        #expect(try store.record(forPath: "/d/paused.pdf")?.partial == Validators(etag: "\"2\""))
    }

    @Test func aPartialWrittenLatelyKeepsItsRecord() throws {
        let store = try StateStore(directory: directory)
        try store.save([
            file("/d/resuming.pdf", checked: start, partial: Validators(etag: "\"2\"")),
            file("/d/first-download.pdf", checked: nil, partial: Validators(etag: "\"3\"")),
            file("/d/abandoned.pdf", checked: nil, partial: Validators(etag: "\"4\"")),
        ])
        let now = start + 100 * day
        let verdict = try prune(store, at: now, partials: ["/d/resuming.pdf": now - day, "/d/first-download.pdf": now - 60])
        #expect(verdict?.files == ["/d/abandoned.pdf"])
    }

    @Test func aLiveFeedKeepsItsTombstonesAndEpisodeRecordsHowEverOld() throws {
        let store = try StateStore(directory: directory)
        try saveFeed("/d/ATP", checked: start, in: store)
        let before = try store.episodes(ofFeed: "/d/ATP")
        #expect(before.map(\.state) == [.wanted, .deleted])

        let verdict = try prune(store, feeds: ["/d/ATP"], at: start + 1_000 * day)

        #expect(verdict == .init())
        #expect(try store.episodes(ofFeed: "/d/ATP") == before)
        #expect(try store.feedRecord(forFolder: "/d/ATP") != nil)
        #expect(try paths(in: store) == ["/d/ATP/episode 1.mp3"])
    }

    @Test func aFeedNoManifestHasTakesItsEpisodesKeysAndFilesAlongAndNothingElse() throws {
        let store = try StateStore(directory: directory)
        try saveFeed("/d/Old", checked: start, in: store)
        try saveFeed("/d/Live", checked: start, in: store)
        try saveFeed("/d/Recent", checked: start + 50 * day, in: store)
        let live = try store.episodes(ofFeed: "/d/Live")
        #expect(try count("episode_keys", in: store) == .integer(3 * 2 * 3))

        let verdict = try prune(store, feeds: ["/d/Live"], at: start + 100 * day)

        #expect(verdict == .init(files: ["/d/Old/episode 1.mp3"], feeds: ["/d/Old"]))
        #expect(try store.feedRecords().map(\.folder) == ["/d/Live", "/d/Recent"])
        #expect(try store.episodes(ofFeed: "/d/Old").isEmpty)
        #expect(try store.episodes(ofFeed: "/d/Live") == live)
        #expect(try store.episodes(ofFeed: "/d/Recent").count == 2)
        #expect(try count("episodes", in: store) == .integer(4))
        #expect(try count("episode_keys", in: store) == .integer(2 * 2 * 3))
        #expect(try paths(in: store) == ["/d/Live/episode 1.mp3", "/d/Recent/episode 1.mp3"])
    }

    @Test func everyRecordInAGoneFeedsFolderGoesButAFileTheManifestOwnsThere() throws {
        let store = try StateStore(directory: directory)
        try saveFeed("/d/Old", checked: start, in: store)
        let now = start + 100 * day
        try store.save([
            file("/d/Old/held episode.mp3", checked: now, hold: .paused),
            file("/d/Old/young episode.mp3", checked: now),
            file("/d/Old/sub/deeper.mp3", checked: now),
            file("/d/Old/now a file of the manifest.pdf", checked: start),
            file("/d/Old0/sibling.pdf", checked: now),
            file("/d/Old-2/sibling.pdf", checked: now),
            file("/d/Old.pdf", checked: now),
        ])

        let verdict = try prune(store, files: ["/d/Old/now a file of the manifest.pdf"], at: now)

        #expect(verdict?.feeds == ["/d/Old"])
        #expect(Set(verdict?.files ?? []) == ["/d/Old/episode 1.mp3", "/d/Old/held episode.mp3", "/d/Old/young episode.mp3", "/d/Old/sub/deeper.mp3"])
        #expect(try paths(in: store) == ["/d/Old-2/sibling.pdf", "/d/Old.pdf", "/d/Old/now a file of the manifest.pdf", "/d/Old0/sibling.pdf"])
    }

    @Test func aHeldFeedStays() throws {
        let store = try StateStore(directory: directory)
        try saveFeed("/d/Stopped", checked: start, in: store)
        try store.setFeedHold(.stopped, forFolder: "/d/Stopped", url: "https://example.org/d/Stopped.rss")
        #expect(try prune(store, at: start + 1_000 * day) == .init())
        #expect(try store.episodes(ofFeed: "/d/Stopped").count == 2)
    }

    @Test func twoManifestsSharingAStateKeepEachOthersLiveRecords() throws {
        // A and B share one state folder, each run every few days; neither owns the other's files.
        let store = try StateStore(directory: directory)
        let a = (0..<3).map { "/a/\($0).pdf" }
        let b = (0..<3).map { "/b/\($0).pdf" }
        var now = start
        for round in 0..<60 {
            let (mine, checked) = round.isMultiple(of: 2) ? (a, now) : (b, now)
            try store.saveTransferResults(mine.map { file($0, checked: checked) })
            #expect(try prune(store, files: mine, at: now)?.files ?? [] == [])
            now += 3 * day
        }
        #expect(try paths(in: store) == a + b)

        // B is no longer run; A's prunes let B's records go once untouched for the period.
        let lastOfB = try #require(try store.record(forPath: b[0])?.lastResult?.date)
        #expect(try prune(store, files: a, at: lastOfB + 90 * day - 1) == .init())
        #expect(try prune(store, files: a, at: lastOfB + 91 * day) == .init(files: b))
        #expect(try paths(in: store) == a)
    }

    @Test func aPruneRunsAtMostOnceADayRememberedInTheState() throws {
        let store = try StateStore(directory: directory)
        #expect(try store.lastPrune() == nil)
        try store.save(file("/d/old.pdf", checked: start))
        // A state never pruned: its first day is noted, nothing goes.
        let noted = try store.pruneRecordsIfDue(ownedBy: [], feeds: [], retention: policy, now: start + 199 * day, partialTouched: { _ in nil })
        #expect(noted.lastRun == start + 199 * day)
        #expect(noted.verdict == nil)
        #expect(try paths(in: store) == ["/d/old.pdf"])

        let first = start + 200 * day
        #expect(try prune(store, at: first) == .init(files: ["/d/old.pdf"]))
        #expect(try store.lastPrune() == first)

        // Another process sharing the state, later the same day: not due, nothing goes.
        let other = try StateStore(directory: directory)
        try other.save(file("/d/also-old.pdf", checked: start))
        let result = try other.pruneRecordsIfDue(ownedBy: [], feeds: [], retention: policy, now: first + day - 1, partialTouched: { _ in nil })
        #expect(result.lastRun == first)
        #expect(result.verdict == nil)
        #expect(try paths(in: other) == ["/d/also-old.pdf"])

        #expect(try prune(other, at: first + day) == .init(files: ["/d/also-old.pdf"]))
        #expect(try store.lastPrune() == first + day)
    }

    /// The manifest's paths and folders are made only for a prune that runs: a batch asks at
    /// its end every time, and a day's later batches would make 10,000 paths for nothing.
    @Test func theOwnedPathsAreMadeOnlyWhenThePruneIsDue() throws {
        let store = try StateStore(directory: directory)
        try store.save(file("/d/old.pdf", checked: start))
        var made = 0
        func owned() -> [String] {
            made += 1
            return ["/d/kept.pdf"]
        }
        // The first day noted, then the same day again: never due, nothing made.
        for now in [start + 199 * day, start + 199 * day + 3_600] {
            let result = try store.pruneRecordsIfDue(ownedBy: owned(), feeds: owned(), retention: policy, now: now, partialTouched: { _ in nil })
            #expect(result.verdict == nil)
        }
        #expect(made == 0)
        let due = try store.pruneRecordsIfDue(ownedBy: owned(), feeds: owned(), retention: policy, now: start + 200 * day, partialTouched: { _ in nil })
        #expect(due.verdict == .init(files: ["/d/old.pdf"]))
        #expect(made == 2)
    }

    @Test func aPruneThatFreesMostOfTheFileGivesTheSpaceBack() throws {
        let store = try StateStore(directory: directory)
        let others = (0..<2_000).map { "/other/\($0)/a-long-enough-name-to-fill-pages.pdf" }
        try store.save(others.map { file($0, checked: start) } + [file("/d/kept.pdf", checked: start)])
        let pagesBefore = try #require(try store.database.singleValue("PRAGMA page_count"))

        #expect(try prune(store, files: ["/d/kept.pdf"], at: start + 100 * day)?.files.count == 2_000)

        guard case .integer(let before) = pagesBefore, case .integer(let after) = try store.database.singleValue("PRAGMA page_count") else {
            Issue.record("no page count")
            return
        }
        #expect(after * 4 < before)
        #expect(try store.database.singleValue("PRAGMA freelist_count") == .integer(0))
        #expect(try paths(in: store) == ["/d/kept.pdf"])
    }

    @Test func aPruneThatFreesLittleLeavesTheFileAlone() throws {
        let store = try StateStore(directory: directory)
        let kept = (0..<200).map { "/d/\($0).pdf" }
        try store.save(kept.map { file($0, checked: start) } + [file("/gone.pdf", checked: start)])
        let before = try store.database.singleValue("PRAGMA page_count")
        #expect(try prune(store, files: kept, at: start + 100 * day)?.files == ["/gone.pdf"])
        #expect(try store.database.singleValue("PRAGMA page_count") == before)
    }

    @Test func anOlderStateGainsTheUpkeepTable() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
            for step in StateSchema.migrations.prefix(6) { try old.execute(step) }
            try old.execute("PRAGMA application_id = \(StateSchema.applicationID); PRAGMA user_version = 6;")
            try old.execute("""
                INSERT INTO files (path, url, partial_present, failed_attempts, last_result_kind, last_result_date)
                VALUES ('/d/x.pdf', 'http://127.0.0.1/x.pdf', 0, 0, 'unchanged', \(start.timeIntervalSince1970))
                """)
        }
        let store = try StateStore(directory: directory)
        #expect(try store.database.singleValue("PRAGMA user_version") == .integer(StateSchema.currentVersion))
        #expect(try store.lastPrune() == nil)
        #expect(try prune(store, files: ["/d/x.pdf"], at: start + 100 * day) == .init())
        #expect(try paths(in: store) == ["/d/x.pdf"])
    }
}
