import Foundation
import Testing
@testable import SyncAgentKit

/// The pure policy of one feed check: first sight, new items, identity across edits,
/// names, and deletion by `keep` and `max_age`.
struct FeedUpdateTests {
    /// 2026-11-20T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_132_800)
    static let day: Int64 = 86_400

    /// Item `number`, published `daysAgo` before ``now``.
    private func item(_ number: Int, daysAgo: Int64? = nil, guid: String? = nil, url: String? = nil, type: String? = "audio/mpeg") -> FeedItem {
        let published = daysAgo.map { FeedDate(secondsSince1970: Int64(Self.now.timeIntervalSince1970) - $0 * Self.day) }
        return FeedItem(
            title: "Episode \(number)", guid: guid ?? "guid-\(number)", published: published,
            enclosures: [FeedEnclosure(url: url ?? "https://cdn.example.org/ep\(number).mp3?token=a", mediaType: type)]
        )
    }

    private func feed(_ items: [FeedItem]) -> Feed { Feed(title: "ATP", items: items) }

    private func settings(first: Manifest.EpisodeCount = .newest(2), keep: Manifest.EpisodeCount = .all, maxAge: Duration? = nil,
                          types: Set<Manifest.EnclosureKind> = Manifest.Feed.defaultTypes, name: String = "{title}") throws -> Manifest.Feed {
        Manifest.Feed(title: "ATP", url: "https://atp.fm/rss", folder: "ATP", name: try FileNameTemplate.parse(name), first: first,
                      keep: keep, maxAge: maxAge, types: types)
    }

    /// The episodes a plan adds, as stored after it (ids from 1).
    private func stored(_ update: FeedUpdate, startingAt first: Int64 = 1, as state: EpisodeState? = nil) -> [StoredEpisode] {
        update.added.enumerated().map { offset, new in
            StoredEpisode(id: first + Int64(offset), keys: Set(new.keys), fileName: new.fileName, state: state ?? new.state,
                          title: new.item.title, url: new.item.enclosure!.url, published: new.item.published?.secondsSince1970)
        }
    }

    @Test func onFirstSightOnlyTheNewestFirstAreWanted() throws {
        // Out of order on purpose: the newest by date, not by place, are wanted.
        let update = FeedUpdate.plan(feed([item(3, daysAgo: 3), item(5, daysAgo: 1), item(4, daysAgo: 2), item(1, daysAgo: 5)]),
                                     known: [], settings: try settings(), firstSight: true, now: Self.now)
        #expect(update.added.map(\.state) == [.skipped, .wanted, .wanted, .skipped])
        #expect(update.queued.map(\.item.title) == ["Episode 5", "Episode 4"])
        #expect(update.added.map(\.fileName) == ["Episode 3.mp3", "Episode 5.mp3", "Episode 4.mp3", "Episode 1.mp3"])
        #expect(update.deleted.isEmpty && update.aliases.isEmpty)
    }

    @Test(arguments: [(Manifest.EpisodeCount.all, 3), (.newest(0), 0), (.newest(1), 1)])
    func firstCanBeAllOrNothing(first: Manifest.EpisodeCount, wanted: Int) throws {
        let update = FeedUpdate.plan(feed([item(3, daysAgo: 1), item(2, daysAgo: 2), item(1)]), known: [],
                                     settings: try settings(first: first), firstSight: true, now: Self.now)
        #expect(update.queued.count == wanted)
        #expect(update.added.count == 3)
    }

    @Test func afterFirstSightEveryNewEpisodeIsWantedAndKnownOnesAreLeftAlone() throws {
        let settings = try settings(first: .newest(0))
        let first = FeedUpdate.plan(feed([item(2, daysAgo: 2), item(1, daysAgo: 3)]), known: [], settings: settings, firstSight: true, now: Self.now)
        let known = stored(first)
        let second = FeedUpdate.plan(feed([item(3, daysAgo: 0), item(2, daysAgo: 2), item(1, daysAgo: 3)]), known: known,
                                     settings: settings, firstSight: false, now: Self.now)
        #expect(second.added.map(\.item.title) == ["Episode 3"])
        #expect(second.queued.count == 1)
        #expect(second.aliases.isEmpty && second.movedEnclosures.isEmpty && second.deleted.isEmpty)
    }

    @Test func editedGuidsAndRotatedTokensBringNothingBack() throws {
        let settings = try settings(first: .all)
        let first = FeedUpdate.plan(feed([item(2, daysAgo: 2), item(1, daysAgo: 3)]), known: [], settings: settings, firstSight: true, now: Self.now)
        var known = stored(first)
        known[0].state = .done
        let edited = [
            item(2, daysAgo: 2, guid: "new-guid-2", url: "https://cdn.example.org/ep2.mp3?token=b"),
            item(1, daysAgo: 3, url: "https://other-cdn.example.org/ep1.mp3?token=c"),
        ]
        let update = FeedUpdate.plan(feed(edited), known: known, settings: settings, firstSight: false, now: Self.now)
        #expect(update.added.isEmpty)
        #expect(update.aliases[1] == [EpisodeKey(.guid, "new-guid-2")])
        #expect(update.aliases[2] == [EpisodeKey(.url, "other-cdn.example.org/ep1.mp3")])
        // Episode 1 is still to be downloaded: from where the feed now says; episode 2 is done.
        #expect(update.movedEnclosures == [2: FeedEnclosure(url: "https://other-cdn.example.org/ep1.mp3?token=c", mediaType: "audio/mpeg")])
    }

    @Test func aRepeatedGuidKeepsTheNewestWithOneWarning() throws {
        let update = FeedUpdate.plan(feed([item(1, daysAgo: 3, guid: "same"), item(2, daysAgo: 1, guid: "same"), item(3, daysAgo: 2, guid: "same")]),
                                     known: [], settings: try settings(first: .all), firstSight: true, now: Self.now)
        #expect(update.added.map(\.item.title) == ["Episode 2"])
        #expect(update.warnings.map(\.code) == [.duplicateGuid])
    }

    @Test func maxAgeSkipsOldEpisodesAndDeletesDownloadedOnesThatAgePastIt() throws {
        let settings = try settings(first: .all, maxAge: .seconds(10 * 86_400))
        let update = FeedUpdate.plan(feed([item(2, daysAgo: 5), item(1, daysAgo: 20)]), known: [], settings: settings, firstSight: true, now: Self.now)
        #expect(update.added.map(\.state) == [.wanted, .skipped])
        let known = stored(update, as: .done)
        let later = FeedUpdate.plan(feed([item(2, daysAgo: 5)]), known: known, settings: settings, firstSight: false, now: Self.now.addingTimeInterval(6 * 86_400))
        #expect(later.deleted == [1, 2])
    }

    @Test func keepDeletesTheOldestDownloadsOnlyAndNeverUndatedOnesFirst() throws {
        let known = [
            StoredEpisode(id: 1, keys: [], fileName: "a.mp3", state: .done, title: "a", url: "u1", published: 100),
            StoredEpisode(id: 2, keys: [], fileName: "b.mp3", state: .done, title: "b", url: "u2", published: 300),
            StoredEpisode(id: 3, keys: [], fileName: "c.mp3", state: .skipped, title: "c", url: "u3", published: 50),
            StoredEpisode(id: 4, keys: [], fileName: "d.mp3", state: .done, title: "d", url: "u4", published: nil),
            StoredEpisode(id: 5, keys: [], fileName: "e.mp3", state: .deleted, title: "e", url: "u5", published: 10),
            StoredEpisode(id: 6, keys: [], fileName: "f.mp3", state: .done, title: "f", url: "u6", published: 200),
        ]
        let update = FeedUpdate.plan(feed([]), known: known, settings: try settings(keep: .newest(2)), firstSight: false, now: Self.now)
        #expect(update.deleted == [6, 1])
        #expect(FeedUpdate.plan(feed([]), known: known, settings: try settings(), firstSight: false, now: Self.now).deleted.isEmpty)
    }

    @Test func anEpisodeThatVanishesChangesNothing() throws {
        let known = stored(FeedUpdate.plan(feed([item(1, daysAgo: 1)]), known: [], settings: try settings(), firstSight: true, now: Self.now))
        #expect(FeedUpdate.plan(feed([]), known: known, settings: try settings(), firstSight: false, now: Self.now).isEmpty)
    }

    @Test func namesNeverCollideWithAnyEpisodeEverKnown() throws {
        // A tombstone keeps its name; a name differing only in case clashes too (FAT disks).
        let known = [
            StoredEpisode(id: 8, keys: [], fileName: "2026-11-20.mp3", state: .deleted, title: "x", url: "u8"),
            StoredEpisode(id: 9, keys: [], fileName: "2026-11-19.MP3", state: .done, title: "y", url: "u9"),
        ]
        let update = FeedUpdate.plan(feed([item(5, daysAgo: 0), item(4, daysAgo: 0), item(3, daysAgo: 1), item(2)]), known: known,
                                     settings: try settings(name: "{date}"), firstSight: false, now: Self.now)
        // The undated one has no {date}: its name comes from the URL.
        #expect(update.added.map(\.fileName) == ["2026-11-20 (2).mp3", "2026-11-20 (3).mp3", "2026-11-19 (2).mp3", "ep2.mp3"])
    }

    @Test func typesChooseTheEnclosureAndDropItemsWithoutOne() throws {
        var both = item(1, daysAgo: 1)
        both.enclosures = [FeedEnclosure(url: "https://e.org/cover.jpg", mediaType: "image/jpeg"), FeedEnclosure(url: "https://e.org/ep1.mp4", mediaType: nil)]
        let imageOnly = item(2, daysAgo: 2, url: "https://e.org/art.png", type: nil)
        let update = FeedUpdate.plan(feed([both, imageOnly]), known: [], settings: try settings(first: .all), firstSight: true, now: Self.now)
        #expect(update.added.map(\.item.enclosure?.url) == ["https://e.org/ep1.mp4"])
        #expect(update.added.map(\.fileName) == ["Episode 1.mp4"])
        let images = FeedUpdate.plan(feed([both, imageOnly]), known: [], settings: try settings(first: .all, types: [.image]), firstSight: true, now: Self.now)
        #expect(images.added.map(\.item.enclosure?.url) == ["https://e.org/cover.jpg", "https://e.org/art.png"])
    }

    @Test(arguments: [
        ("audio/mpeg", "https://e.org/x", Manifest.EnclosureKind.audio), ("video/mp4", "https://e.org/x.mp3", .video),
        ("image/jpeg", "https://e.org/x", .image), (nil, "https://e.org/x.m4a?t=1", .audio),
        ("application/octet-stream", "https://e.org/x.mkv", .video), ("application/pdf", "https://e.org/x.pdf", .other),
        (nil, "https://e.org/x", .other),
    ] as [(String?, String, Manifest.EnclosureKind)])
    func enclosureKinds(type: String?, url: String, kind: Manifest.EnclosureKind) {
        #expect(Manifest.EnclosureKind(of: FeedEnclosure(url: url, mediaType: type)) == kind)
    }
}
