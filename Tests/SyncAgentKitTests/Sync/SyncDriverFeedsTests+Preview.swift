import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// The feeds' part of `--once --dry-run`: which feeds would be checked and why, with nothing
/// fetched, and the episodes already wanted listed with the files.
extension SyncDriverFeedsTests {
    func preview(_ manifest: Manifest) throws -> (feeds: [SyncDriver.PreviewedFeed], files: [SyncDriver.PreviewedFile]) {
        let driver = SyncDriver(store: store, mode: .everyFileNow, timeZone: TimeZone(identifier: "UTC")!, now: { [unowned self] in now })
        driver.use(manifest)
        return (try driver.previewFeeds(), try driver.preview())
    }

    @Test func aDryRunSaysWhyEachFeedWouldBeCheckedOrSkippedAndFetchesNothing() throws {
        try publish([Item(number: 2), Item(number: 1)])
        let manifest = try manifest(first: .newest(1))
        #expect(try preview(manifest).feeds.map(\.decision) == [.check(.neverChecked)])
        #expect(server.requests(for: "/feed.xml").isEmpty)

        try runOnce(manifest)
        guard case .check(.recheck(let schedule)) = try preview(manifest).feeds.first?.decision else {
            Issue.record("a checked feed is not re-checked")
            return
        }
        #expect(schedule == .notDue(until: now.addingTimeInterval(Double(manifest.feeds[0].schedule.every.components.seconds))))

        // An episode the feed wants now is fetched like a file.
        _ = try record(.start, ["ATP/Episode 1"], in: manifest)
        #expect(try preview(manifest).files.map(\.title) == ["ATP/Episode 1"])
        #expect(try preview(manifest).files.first?.decision == .fetch(.missing))

        _ = try record(.stop, ["ATP"], in: manifest)
        #expect(try preview(manifest).feeds.map(\.decision) == [.skip(.held(.stopped))])
        #expect(server.requests(for: "/feed.xml", count: 2).count == 1)
    }

    @Test func aDryRunSkipsAFeedThatIsGone() throws {
        let gone = try NginxServer(locations: "location = /feed.xml { return 410; }")
        defer { gone.stop() }
        let manifest = Manifest(destination: folder.appending("files"), files: [], feeds: [Manifest.Feed(title: "ATP", url: gone.url("feed.xml"), folder: "ATP")])
        try runOnce(manifest)
        #expect(try preview(manifest).feeds.map(\.decision) == [.skip(.gone)])
    }
}
