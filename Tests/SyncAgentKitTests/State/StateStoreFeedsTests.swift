import Foundation
import Testing
@testable import SyncAgentKit

/// Feeds and episodes in the state database: one check saved whole, keys and aliases,
/// tombstones, the hold left to the user, and the upgrade from a version-4 file.
final class StateStoreFeedsTests {
    let root = FileManager.default.temporaryDirectory.path + "/syncagent-feed-state-\(UUID().uuidString)"
    var directory: String { root + "/state" }
    let folder = "/home/ada/Downloads/syncagent/ATP"

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func record(_ digest: String? = "d1") -> FeedRecord {
        FeedRecord(folder: folder, url: "https://atp.fm/rss", validators: Validators(etag: "\"e1\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT"),
                   bodySHA256: digest, movedTo: "https://atp.fm/new", moveKind: .newFeedURL, goneSince: Date(timeIntervalSince1970: 1_700_000_000),
                   lastCheck: Date(timeIntervalSince1970: 1_700_000_100.5), lastError: "the server answered 503", failedAttempts: 2,
                   nextAttempt: Date(timeIntervalSince1970: 1_700_000_200))
    }

    private func item(_ number: Int, url: String? = nil) -> FeedItem {
        FeedItem(title: "Episode \(number)", guid: "guid-\(number)", published: FeedDate(secondsSince1970: 1_700_000_000 + Int64(number)),
                 enclosures: [FeedEnclosure(url: url ?? "https://cdn.example.org/ep\(number).mp3?t=1", mediaType: "audio/mpeg", length: 1000 + Int64(number))])
    }

    private func update(_ items: [FeedItem], known: [StoredEpisode] = [], firstSight: Bool = true) throws -> FeedUpdate {
        let settings = Manifest.Feed(title: "ATP", url: "https://atp.fm/rss", folder: "ATP", first: .newest(1))
        return FeedUpdate.plan(Feed(title: "ATP", items: items), known: known, settings: settings, firstSight: firstSight, now: Date(timeIntervalSince1970: 1_700_000_100))
    }

    @Test func aCheckIsSavedWholeAndReadBack() throws {
        let store = try StateStore(directory: directory)
        #expect(try store.feedRecord(forFolder: folder) == nil)
        let first = try update([item(2), item(1)])
        let ids = try store.saveFeedUpdate(first, record: record())
        #expect(ids.count == 2)
        #expect(try store.feedRecord(forFolder: folder) == record())
        #expect(try store.feedRecords() == [record()])
        let episodes = try store.episodes(ofFeed: folder)
        #expect(episodes.map(\.state) == [.wanted, .skipped])
        #expect(episodes[0] == StoredEpisode(
            id: ids[0], keys: [EpisodeKey(.guid, "guid-2"), EpisodeKey(.url, "cdn.example.org/ep2.mp3"), EpisodeKey(.titleDay, "2023-11-14 episode 2")],
            fileName: "2023-11-14 Episode 2.mp3", state: .wanted, title: "Episode 2", url: "https://cdn.example.org/ep2.mp3?t=1",
            published: 1_700_000_002, length: 1002
        ))
        #expect(try store.episodes(ofFeed: "/elsewhere").isEmpty)
    }

    @Test func aliasesMovedEnclosuresAndTombstonesAreKept() throws {
        let store = try StateStore(directory: directory)
        let ids = try store.saveFeedUpdate(try update([item(2), item(1)]), record: record())
        try store.setEpisodeState(.done, ofEpisode: ids[1])
        var edited = item(1, url: "https://cdn2.example.org/ep1.mp3")
        edited.guid = "guid-1-new"
        var moved = item(2, url: "https://cdn.example.org/ep2.mp3?t=2")
        moved.guid = "guid-2"
        var second = try update([moved, edited], known: try store.episodes(ofFeed: folder), firstSight: false)
        #expect(second.added.isEmpty)
        second.deleted = [ids[1]]
        try store.saveFeedUpdate(second, record: record("d2"))
        let episodes = try store.episodes(ofFeed: folder)
        #expect(episodes.map(\.state) == [.wanted, .deleted])
        #expect(episodes[0].url == "https://cdn.example.org/ep2.mp3?t=2")
        #expect(episodes[1].keys.contains(EpisodeKey(.guid, "guid-1-new")) && episodes[1].keys.contains(EpisodeKey(.guid, "guid-1")))
        // The tombstone is found by its new guid: nothing comes back.
        #expect(try update([edited], known: episodes, firstSight: false).added.isEmpty)
        #expect(try store.feedRecord(forFolder: folder)?.bodySHA256 == "d2")
    }

    @Test func aCheckNeverOverwritesTheUsersHold() throws {
        let store = try StateStore(directory: directory)
        var held = record()
        held.hold = .paused
        try store.saveFeedCheck(held)
        try store.saveFeedCheck(record("d3"))
        #expect(try store.feedRecord(forFolder: folder)?.hold == .paused)
        #expect(try store.feedRecord(forFolder: folder)?.bodySHA256 == "d3")
    }

    @Test func aVersionFourFileGainsTheFeedTablesAndKeepsItsFiles() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
            for step in StateSchema.migrations.prefix(4) { try old.execute(step) }
            try old.execute("""
                INSERT INTO files (path, url, partial_present, failed_attempts) VALUES ('/d/a.pdf', 'https://e.org/a.pdf', 0, 0);
                PRAGMA application_id = \(StateSchema.applicationID); PRAGMA user_version = 4;
                """)
        }
        let store = try StateStore(directory: directory)
        #expect(try store.records().map(\.path) == ["/d/a.pdf"])
        try store.saveFeedUpdate(try update([item(1)]), record: record())
        #expect(try store.episodes(ofFeed: folder).count == 1)
        let database = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
        #expect(throws: SQLiteError.self) { try database.execute("UPDATE episodes SET state = 'forgotten'") }
        #expect(throws: SQLiteError.self) { try database.execute("UPDATE feeds SET moved_to = NULL") }
    }

    @Test(arguments: ["guid:a:b", "url:host/path", "title-day:2026-11-20 t"])
    func keysReadBackAsWritten(text: String) throws {
        #expect(try #require(EpisodeKey(stored: text)).description == text)
    }

    @Test func anUnknownKeyKindIsNoKey() {
        #expect(EpisodeKey(stored: "colour:red") == nil && EpisodeKey(stored: "nocolon") == nil)
    }
}
