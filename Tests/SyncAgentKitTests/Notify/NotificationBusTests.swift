import Foundation
import Testing
@testable import TestSupport

/// The private bus and recording server the libnotify tests rely on, checked with GLib's
/// own `gdbus` client so a harness fault cannot hide behind a notifier fault.
struct NotificationBusTests {
    @Test func recordsANotifyCallWithItsHints() throws {
        let bus = try NotificationBus(server: .recording)
        defer { bus.stop() }

        let reply = try Self.callNotify(on: bus)

        #expect(reply == "(uint32 1,)")
        let recorded = try bus.recordedNotifications()
        #expect(recorded == [
            RecordedNotification(
                appName: "gdbus-test", replacesID: 0, appIcon: "dialog-error",
                summary: "Summary", body: "Line one\nLine two",
                actions: ["default", "Open"],
                hints: ["category": .string("transfer.error"), "urgency": .integer(2), "transient": .boolean(true)],
                expireTimeout: 5000
            ),
        ])
        #expect(recorded.first?.category == "transfer.error")
        #expect(recorded.first?.urgency == 2)
    }

    @Test func silentServerOwnsTheNameButNeverAnswers() throws {
        let bus = try NotificationBus(server: .silent)
        defer { bus.stop() }

        let error = #expect(throws: TestSupportError.self) {
            try Self.callNotify(on: bus, timeout: .milliseconds(500))
        }

        #expect(error?.code == .timedOut)
    }

    @Test func withoutAServerTheNameHasNoOwnerAndNothingIsActivated() throws {
        let bus = try NotificationBus(server: .none)
        defer { bus.stop() }

        let owner = try Self.gdbus(on: bus, [
            "call", "--address", bus.address, "--dest", "org.freedesktop.DBus",
            "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
            "org.freedesktop.Notifications",
        ])
        let activatable = try Self.gdbus(on: bus, [
            "call", "--address", bus.address, "--dest", "org.freedesktop.DBus",
            "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.ListActivatableNames",
        ])

        #expect(owner == "(false,)")
        #expect(activatable == "(['org.freedesktop.DBus'],)")
    }

    @Test func clientEnvironmentReachesThisBusOnly() throws {
        let bus = try NotificationBus(server: .none)
        defer { bus.stop() }

        let environment = bus.clientEnvironment

        #expect(environment["DBUS_SESSION_BUS_ADDRESS"] == bus.address)
        #expect(environment["DISPLAY"] == nil)
        #expect(environment["WAYLAND_DISPLAY"] == nil)
        #expect(environment["XDG_RUNTIME_DIR"] == bus.directory.path)
    }

    @Test func stopKillsEverythingAndRemovesTheDirectory() throws {
        let bus = try NotificationBus(server: .recording)
        let pids = [bus.daemon.pid, try #require(bus.server).pid]
        let directory = bus.directory.path

        bus.stop()

        for pid in pids {
            #expect(kill(pid, 0) == -1, "process \(pid) is still there")
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// Sends one `Notify` with every argument and a few hint types set; returns gdbus's reply.
    private static func callNotify(on bus: NotificationBus, timeout: Duration = .seconds(20)) throws -> String {
        try gdbus(on: bus, [
            "call", "--address", bus.address, "--dest", "org.freedesktop.Notifications",
            "--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
            "gdbus-test", "0", "dialog-error", "Summary", "Line one\nLine two", "['default', 'Open']",
            "{'category': <'transfer.error'>, 'urgency': <byte 2>, 'transient': <true>}", "5000",
        ], timeout: timeout)
    }

    private static func gdbus(on bus: NotificationBus, _ arguments: [String], timeout: Duration = .seconds(20)) throws -> String {
        let client = try ChildProcess("/usr/bin/gdbus", arguments: arguments, environment: bus.clientEnvironment)
        defer { client.stop() }
        return try client.readLine(timeout: timeout)
    }
}
