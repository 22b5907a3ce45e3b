import Foundation
import Testing
@testable import SyncAgentKit

/// What `status` says of transfers that run on after their window closed; a fixed clock.
struct ClosedWindowNoticeTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!
    let manifest = Manifest(destination: "/home/ada/Guides", files: [
        .init(title: "AV Foundation", url: "https://example.org/av.pdf", path: "av.pdf",
              schedule: .init(window: Manifest.DailyWindow(start: 60, end: 360))),
        .init(title: "Networking", url: "https://example.org/net.pdf", path: "net.pdf",
              schedule: .init(window: Manifest.DailyWindow(start: 60, end: 360))),
        .init(title: "Anytime", url: "https://example.org/any.pdf", path: "any.pdf"),
    ])

    func at(_ hour: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: 24, hour: hour))!
    }

    func file(_ name: String, _ state: FileStatus.State) -> FileStatus {
        FileStatus(title: name == "av.pdf" ? "AV Foundation" : name == "net.pdf" ? "Networking" : "Anytime",
                   path: "/home/ada/Guides/" + name, state: state)
    }

    @Test func aTransferOutsideItsWindowIsSaidToRunOn() {
        let files = [file("av.pdf", .downloading), file("net.pdf", .waitingForWindow), file("any.pdf", .downloading)]
        #expect(ClosedWindowNotice.message(files: files, manifest: manifest, at: at(7), timeZone: zone)
            == "AV Foundation runs on after its window 01:00-06:00 closed; it finishes, and nothing new starts before the window opens again.")
        #expect(ClosedWindowNotice.message(files: [file("av.pdf", .downloading), file("net.pdf", .downloading)], manifest: manifest, at: at(7), timeZone: zone)
            == "AV Foundation and 1 more run on after their window closed; they finish, and nothing new starts before it opens again.")
    }

    @Test func insideTheWindowOrWithoutOneThereIsNothingToSay() {
        #expect(ClosedWindowNotice.message(files: [file("av.pdf", .downloading)], manifest: manifest, at: at(3), timeZone: zone) == nil)
        #expect(ClosedWindowNotice.message(files: [file("any.pdf", .downloading)], manifest: manifest, at: at(7), timeZone: zone) == nil)
        #expect(ClosedWindowNotice.message(files: [file("av.pdf", .upToDate)], manifest: manifest, at: at(7), timeZone: zone) == nil)
    }
}
