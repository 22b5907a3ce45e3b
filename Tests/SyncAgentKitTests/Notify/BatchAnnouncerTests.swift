import Testing
@testable import SyncAgentKit

/// The one policy for what a batch says, in `--once` and the agent.
struct BatchAnnouncerTests {
    static let destination = "/home/ann/Downloads/Apple Guides"

    func result(_ title: String, _ outcome: TransferOutcome) -> FileResult {
        FileResult(title: title, path: Self.destination + "/" + title, outcome: outcome)
    }

    func report(_ results: [FileResult], stillFailing: [BatchReport.StillFailing] = []) -> BatchReport {
        BatchReport(results: results, stillFailing: stillFailing, destination: Self.destination)
    }

    let notFound = TransferOutcome.failed(TransferFailure(.notFound, "the server answered 404 Not Found"))

    @Test func allDownloadedWithNothingFailingSaysSo() {
        var announcer = BatchAnnouncer(places: .init(home: "/home/ann"))
        let announcement = announcer.announce(report([result("A", .downloaded(bytes: 712_000)), result("B", .unchanged)]))

        #expect(announcement.notification?.summary == "All files have been downloaded!")
        #expect(announcement.notification?.body == "1 file, 712 KB, in ~/Downloads/Apple Guides")
        #expect(announcement.details == nil)
        #expect(announcement.downloaded == 1)
        #expect(announcement.newFailures == 0)
    }

    @Test func aCheckThatFoundNothingNewIsSilent() {
        var announcer = BatchAnnouncer()
        #expect(announcer.announce(report([result("A", .unchanged)])).notification == nil)
    }

    @Test func newFailuresGetTheFailureSummary() {
        var announcer = BatchAnnouncer()
        let announcement = announcer.announce(report([result("A", .downloaded(bytes: 1_000)), result("Annual Report", notFound)]))

        #expect(announcement.notification?.summary == "1 of 2 files could not be downloaded")
        #expect(announcement.notification?.body == "Annual Report: the server answered 404 Not Found")
        #expect(announcement.newFailures == 1)
    }

    @Test func aFailureToldBeforeIsNotToldAgain() {
        var announcer = BatchAnnouncer()
        _ = announcer.announce(report([result("Annual Report", notFound)]))

        let again = announcer.announce(report([result("Annual Report", notFound)]))

        #expect(again.notification == nil)
        #expect(again.newFailures == 0)
    }

    @Test func aDifferentReasonIsNews() {
        var announcer = BatchAnnouncer()
        _ = announcer.announce(report([result("Annual Report", notFound)]))

        let changed = announcer.announce(report([result("Annual Report", .failed(TransferFailure(.serverError, "the server answered 503")))]))

        #expect(changed.newFailures == 1)
        #expect(changed.notification?.summary == "1 file could not be downloaded")
    }

    @Test func neverClaimsSuccessWhileAFileStillFailsFromBefore() {
        var announcer = BatchAnnouncer(places: .init(home: "/home/ann", detailsPath: "/d.txt"))
        let still = BatchReport.StillFailing(title: "Annual Report", path: "/x", reason: "the server answered 404 Not Found")

        let announcement = announcer.announce(report([result("New Guide", .downloaded(bytes: 2_000_000))], stillFailing: [still]))

        let new = [Self.destination + "/New Guide"]
        #expect(announcement.notification == DesktopNotification(
            summary: "1 new file · 1 still failing",
            body: "1 file, 2.0 MB, in ~/Downloads/Apple Guides\nAnnual Report: the server answered 404 Not Found",
            category: .transferError,
            urgency: .normal,
            iconName: "syncagent-warning",
            actions: [
                .clickShowsFolder(Self.destination, files: new), .openFolder(Self.destination, files: new),
                .retry(["/x"]), .showDetails("/d.txt"),
            ]
        ))
        #expect(announcement.details == "Annual Report: the server answered 404 Not Found\n    /x\n")
    }

    @Test func aRetryThatFailsAgainTheSameWayCountsAsStillFailing() {
        var announcer = BatchAnnouncer()
        _ = announcer.announce(report([result("Annual Report", notFound)]))

        let announcement = announcer.announce(report([result("Annual Report", notFound), result("A", .downloaded(bytes: 10)), result("B", .downloaded(bytes: 10))]))

        #expect(announcement.notification?.summary == "2 new files · 1 still failing")
        #expect(announcement.newFailures == 0)
    }

    @Test func aFileThatWorksAgainIsForgottenAsTold() {
        var announcer = BatchAnnouncer()
        _ = announcer.announce(report([result("Annual Report", notFound)]))
        _ = announcer.announce(report([result("Annual Report", .downloaded(bytes: 10))]))

        let failsAgain = announcer.announce(report([result("Annual Report", notFound)]))

        #expect(failsAgain.newFailures == 1)
        #expect(failsAgain.notification != nil)
    }

    @Test func listsAtMostFiveFailingFiles() {
        var announcer = BatchAnnouncer()
        let still = (1...7).map { BatchReport.StillFailing(title: "F\($0)", path: "/f\($0)", reason: "gone") }

        let announcement = announcer.announce(report([result("A", .downloaded(bytes: 10))], stillFailing: still))
        let body = announcement.notification?.body

        #expect(body?.split(separator: "\n").count == 6)
        #expect(body?.hasSuffix("F4: gone\nand 3 more") == true)
        #expect(announcement.details == (1...7).map { "F\($0): gone\n    /f\($0)\n" }.joined(), "the details name every one")
    }
}
