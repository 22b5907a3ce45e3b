import Testing
@testable import SyncAgentKit

/// How a batch's notification names new podcast episodes beside the manifest's files.
struct BatchSummaryEpisodesTests {
    static let destination = "/home/ann/Downloads/Apple Guides"

    private func episode(_ feed: String, _ title: String, bytes: Int64) -> FileResult {
        FileResult(title: feed + "/" + title, path: "/x/\(feed)/\(title).mp3", outcome: .downloaded(bytes: bytes), feed: feed)
    }

    @Test func newEpisodesNameTheirFeedsOnceInBatchOrder() {
        let results = [episode("ATP", "612", bytes: 90_000_000), episode("Reply All", "190", bytes: 60_000_000), episode("ATP", "613", bytes: 30_000_000)]
        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination)
        #expect(notification?.summary == "All files have been downloaded!")
        #expect(notification?.body == "3 new episodes (ATP, Reply All) · 180 MB")
    }

    @Test func filesAndEpisodesEachGetALine() {
        let results = [FileResult(title: "Guide", path: "/x/g.pdf", outcome: .downloaded(bytes: 712_000)), episode("ATP", "612", bytes: 90_000_000)]
        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination, places: .init(home: "/home/ann"))
        #expect(notification?.body == "1 file, 712 KB, in ~/Downloads/Apple Guides\n1 new episode (ATP) · 90.0 MB")
    }

    @Test func aFeedThatFailedIsNamedWithItsReason() {
        let broken = FileResult(title: "ATP", path: "/x/ATP", outcome: .failed(TransferFailure(.badResponse, "the feed \"ATP\" is a web page, not a feed")))
        let notification = DesktopNotification.batchSummary(of: [broken], destination: Self.destination)
        #expect(notification?.summary == "1 file could not be downloaded")
        #expect(notification?.body == "ATP: the feed \"ATP\" is a web page, not a feed")
    }
}
