import Testing
@testable import SyncAgentKit

/// The wording of the one notification a finished batch gets (`DesktopNotification.batchSummary`).
struct BatchSummaryTests {
    static let destination = "/home/ann/Downloads/Apple Guides"
    static let places = DesktopNotification.BatchPlaces(home: "/home/ann", detailsPath: "/home/ann/.local/state/syncagent/failures.txt")

    @Test func emptyBatchIsSilent() {
        #expect(DesktopNotification.batchSummary(of: [], destination: Self.destination) == nil)
    }

    @Test func batchWhereNothingChangedIsSilent() {
        let results = (1...6).map { unchanged("Guide \($0)") }

        #expect(DesktopNotification.batchSummary(of: results, destination: Self.destination) == nil)
    }

    @Test func allDownloadedCountsFilesAndBytesAndNamesTheFolder() {
        let sizes: [Int64] = [10_000_000, 20_000_000, 8_000_000, 5_000_000, 3_000_000, 2_200_000]
        let results = sizes.enumerated().map { downloaded("Guide \($0.offset)", bytes: $0.element) }

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination, places: Self.places)

        let files = results.map(\.path)
        #expect(notification == DesktopNotification(
            summary: "All files have been downloaded!",
            body: "6 files, 48.2 MB, in ~/Downloads/Apple Guides",
            category: .transferComplete,
            urgency: .normal,
            iconName: "folder-download",
            actions: [
                .init(key: "default", label: "Open Folder", effect: .showItems(folder: Self.destination, files: files)),
                .init(key: "open-folder", label: "Open Folder", effect: .showItems(folder: Self.destination, files: files)),
            ],
            soundName: "complete-download"
        ))
    }

    @Test func oneNewFileCanBeOpened() {
        let results = [downloaded("Networking Overview", bytes: 712_000), unchanged("Core Data")]

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination, places: Self.places)

        #expect(notification?.actions.map(\.key) == ["default", "open-folder", "open"])
        #expect(notification?.actions.last?.effect == .open(file: Self.destination + "/Networking Overview.pdf"))
    }

    @Test func theFolderIsNamedWholeOutsideTheHomeFolder() {
        let notification = DesktopNotification.batchSummary(
            of: [downloaded("A", bytes: 1_000)], destination: "/srv/guides", places: Self.places
        )

        #expect(notification?.body == "1 file, 1.0 KB, in /srv/guides")
    }

    @Test func unchangedFilesAreNotCountedAsDownloaded() {
        let results = [unchanged("Old"), downloaded("New", bytes: 712_000), unchanged("Older")]

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination + "/", places: Self.places)

        #expect(notification?.summary == "All files have been downloaded!")
        #expect(notification?.body == "1 file, 712 KB, in ~/Downloads/Apple Guides")
    }

    @Test func someFailedNamesEachFailureAndWhy() {
        let results = [
            downloaded("iOS Programming Guide", bytes: 1_000_000),
            failed("Networking Overview", "the server answered 404 Not Found"),
            unchanged("Core Data"),
            failed("Threading Guide", "the server sent a web page instead of the file"),
            downloaded("Memory Management", bytes: 2_000),
            unchanged("Blocks"),
        ]

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination, places: Self.places)

        #expect(notification == DesktopNotification(
            summary: "2 of 6 files could not be downloaded",
            body: """
                Networking Overview: the server answered 404 Not Found
                Threading Guide: the server sent a web page instead of the file
                """,
            category: .transferError,
            urgency: .normal,
            iconName: "syncagent-warning",
            actions: [
                .init(key: "retry", label: "Retry now", effect: .retry(files: [
                    Self.destination + "/Networking Overview.pdf", Self.destination + "/Threading Guide.pdf",
                ])),
                .init(key: "details", label: "Show details", effect: .open(file: Self.places.detailsPath!)),
            ],
            soundName: "dialog-warning"
        ))
    }

    @Test func filesStillFailingFromBeforeAreListedAfterThisBatchsAndRetriedToo() {
        let results = [failed("Networking Overview", "the server answered 404 Not Found"), unchanged("Core Data")]
        let still = [BatchReport.StillFailing(title: "Annual Report", path: "/r.pdf", reason: "the server answered 410 Gone")]

        let notification = DesktopNotification.batchSummary(of: results, stillFailing: still, destination: Self.destination)

        #expect(notification?.summary == "1 of 2 files could not be downloaded")
        #expect(notification?.body == "Networking Overview: the server answered 404 Not Found\nAnnual Report: the server answered 410 Gone")
        #expect(notification?.actions == [.retry([Self.destination + "/Networking Overview.pdf", "/r.pdf"])])
    }

    @Test func aFailureNextToUnchangedFilesStillCountsTheWholeBatch() {
        let results = [unchanged("A"), failed("B", "the connection was reset"), unchanged("C")]

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination)

        #expect(notification?.summary == "1 of 3 files could not be downloaded")
        #expect(notification?.body == "B: the connection was reset")
    }

    @Test(arguments: [(1, "1 file could not be downloaded"), (3, "3 files could not be downloaded")])
    func whenEveryFileFailedTheSummarySaysSo(count: Int, summary: String) {
        let results = (1...count).map { failed("Guide \($0)", "the connection timed out") }

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination)

        #expect(notification?.summary == summary)
        #expect(notification?.urgency == .normal, "a failed download can wait; critical is for what needs the user now")
    }

    @Test func fiveFailuresAreAllListed() {
        let results = (1...5).map { failed("Guide \($0)", "reason \($0)") }

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination)

        #expect(notification?.body == """
            Guide 1: reason 1
            Guide 2: reason 2
            Guide 3: reason 3
            Guide 4: reason 4
            Guide 5: reason 5
            """)
    }

    @Test func moreThanFiveFailuresListFourThenCountTheRest() {
        let results = (1...7).map { failed("Guide \($0)", "reason \($0)") } + [downloaded("Extra", bytes: 1)]

        let notification = DesktopNotification.batchSummary(of: results, destination: Self.destination)

        #expect(notification?.summary == "7 of 8 files could not be downloaded")
        #expect(notification?.body == """
            Guide 1: reason 1
            Guide 2: reason 2
            Guide 3: reason 3
            Guide 4: reason 4
            and 3 more
            """)
    }

    private func downloaded(_ title: String, bytes: Int64) -> FileResult {
        FileResult(title: title, path: "\(Self.destination)/\(title).pdf", outcome: .downloaded(bytes: bytes))
    }

    private func unchanged(_ title: String) -> FileResult {
        FileResult(title: title, path: "\(Self.destination)/\(title).pdf", outcome: .unchanged)
    }

    private func failed(_ title: String, _ reason: String) -> FileResult {
        FileResult(title: title, path: "\(Self.destination)/\(title).pdf", outcome: .failed(TransferFailure(.network, reason)))
    }
}
