import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// logind's sleep delay, asked for over a private system bus with our own D-Bus client: the
/// lock is held until released, and each way of not getting one is told apart.
@Suite(.serialized)
struct SleepInhibitorTests {
    static let lock = "inhibit sleep syncagent delay finishing the downloads you asked for"

    @Test func theLockIsHeldUntilReleased() throws {
        let bus = try PrivateSystemBus()
        let logind = try FakeLogind(on: bus)
        let inhibitor = try SleepInhibitor(why: SleepInhibitor.requestedDownloads, bus: DBusAddress(bus.address))
        #expect(eventually(within: .seconds(5)) { logind.events == [Self.lock] }, "\(logind.events)")
        // Still held a moment later: the connection is gone, the descriptor is not.
        usleep(200_000)
        #expect(logind.events == [Self.lock])
        inhibitor.release()
        #expect(eventually(within: .seconds(5)) { logind.events == [Self.lock, "release 1"] }, "\(logind.events)")
    }

    @Test func aBusWithoutLogindRefusesWithItsError() throws {
        let bus = try PrivateSystemBus()
        #expect {
            try SleepInhibitor(why: SleepInhibitor.requestedDownloads, bus: DBusAddress(bus.address))
        } throws: { error in
            guard let error = error as? ConditionMonitorError else { return false }
            // The bus's own answer, with its name: nothing owns login1, and nothing is started.
            return error.code == .inhibitRefused && error.message.contains("org.freedesktop.DBus.Error.NameHasNoOwner")
        }
    }

    @Test func noBusIsNoSystemBus() throws {
        let folder = try TemporaryDirectory(prefix: "nobus")
        #expect {
            try SleepInhibitor(why: SleepInhibitor.requestedDownloads, bus: DBusAddress("unix:path=\(folder.appending("none"))"))
        } throws: { error in
            guard let error = error as? ConditionMonitorError else { return false }
            return error.code == .noSystemBus && error.message.contains("\(folder.appending("none")): No such file or directory")
        }
    }

    @Test func aBusThatNeverAnswersIsGivenUpOnInTime() throws {
        let folder = try TemporaryDirectory(prefix: "silentbus")
        let path = folder.appending("bus")
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)
        #expect {
            try SleepInhibitor(why: SleepInhibitor.requestedDownloads, bus: DBusAddress("unix:path=\(path)"))
        } throws: { error in
            (error as? ConditionMonitorError)?.code == .inhibitRefused
        }
    }
}
