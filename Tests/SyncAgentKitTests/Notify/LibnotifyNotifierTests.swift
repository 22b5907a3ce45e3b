import Foundation
import SyncAgentKit
import Testing
import TestSupport

/// `LibnotifyNotifier` against a real private bus and a recording notification server.
///
/// GDBus reads the session bus address once per process and keeps that connection, so each
/// case runs the `NotifyProbe` executable (one `post` through `LibnotifyNotifier`) in a
/// process of its own, pointed at a bus of its own. Cases stay independent and may run in
/// parallel.
struct LibnotifyNotifierTests {
    /// What the server must record for a posted notification.
    struct Expectation: Sendable, CustomTestStringConvertible {
        var notification: DesktopNotification
        var appIcon: String
        var category: String?
        var urgency: Int

        var testDescription: String { "\(notification.urgency): \(notification.summary)" }
    }

    static let expectations = [
        Expectation(
            notification: DesktopNotification(
                summary: "All files have been downloaded!",
                body: "6 files, 48.2 MB, in Apple Guides",
                category: .transferComplete,
                urgency: .normal,
                iconName: "folder-download"
            ),
            appIcon: "folder-download", category: "transfer.complete", urgency: 1
        ),
        Expectation(
            notification: DesktopNotification(
                summary: "2 of 6 files could not be downloaded",
                body: "Networking Overview: the server answered 404 Not Found\nCore Data: the connection was reset",
                category: .transferError,
                urgency: .critical,
                iconName: "dialog-error"
            ),
            appIcon: "dialog-error", category: "transfer.error", urgency: 2
        ),
        Expectation(
            notification: DesktopNotification(summary: "Checked", urgency: .low),
            appIcon: "", category: nil, urgency: 0
        ),
    ]

    @Test(arguments: expectations)
    func serverReceivesExactlyWhatWasPosted(_ expected: Expectation) throws {
        let bus = try NotificationBus(server: .recording)
        defer { bus.stop() }

        let run = try Probe.post(expected.notification, timeout: .seconds(10), environment: bus.clientEnvironment)

        #expect(run.line == "posted")
        let recorded = try bus.recordedNotifications()
        #expect(recorded.count == 1)
        let call = try #require(recorded.first)
        #expect(call.appName == "syncagent")
        #expect(call.summary == expected.notification.summary)
        #expect(call.body == expected.notification.body)
        #expect(call.appIcon == expected.appIcon)
        #expect(call.category == expected.category)
        #expect(call.urgency == expected.urgency)
        #expect(call.desktopEntry == "syncagent")
        #expect(call.actions == [])
        #expect(call.expireTimeout == -1)
        #expect(call.replacesID == 0)
    }

    @Test func noServerOnTheBusIsAnErrorAtOnce() throws {
        let bus = try NotificationBus(server: .none)
        defer { bus.stop() }

        let run = try Probe.post(Self.anyNotification, timeout: .seconds(10), environment: bus.clientEnvironment)

        #expect(run.line.hasPrefix("failed no-server: no notification server is running on the session bus ("))
        #expect(run.elapsed < .seconds(5))
    }

    @Test func noSessionBusIsAnErrorAtOnce() throws {
        let runtime = try TemporaryDirectory(prefix: "syncagent-runtime")
        let environment = NotificationBus.environmentWithoutSessionBus(runtimeDirectory: runtime.path)

        let run = try Probe.post(Self.anyNotification, timeout: .seconds(10), environment: environment)

        #expect(run.line.hasPrefix("failed no-bus: cannot reach the session bus ("))
        #expect(run.elapsed < .seconds(5))
    }

    @Test func serverThatNeverAnswersTimesOutAfterTheTimeoutNotGDBusDefault() throws {
        let bus = try NotificationBus(server: .silent)
        defer { bus.stop() }

        let run = try Probe.post(Self.anyNotification, timeout: .seconds(1), environment: bus.clientEnvironment)

        #expect(run.line == "failed timed-out: the notification server did not answer within 1 second")
        #expect(run.elapsed >= .seconds(1))
        #expect(run.elapsed < .seconds(10), "libnotify alone waits 50 seconds (twice GDBus's 25); ours must win")
    }

    static let anyNotification = DesktopNotification(summary: "All files have been downloaded!")
}

/// Runs the `NotifyProbe` executable once.
private enum Probe {
    /// Posts `notification` from a new process with `environment`; returns the line the
    /// probe printed ("posted" or "failed CODE: MESSAGE") and how long it took.
    static func post(
        _ notification: DesktopNotification,
        timeout: Duration,
        environment: [String: String]
    ) throws -> (line: String, elapsed: Duration) {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let arguments = [
            String(milliseconds),
            notification.summary,
            notification.body,
            notification.category?.rawValue ?? "-",
            "\(notification.urgency)",
            notification.iconName ?? "-",
        ]
        let clock = ContinuousClock()
        let start = clock.now
        let probe = try ChildProcess(
            try BuiltProducts.executable(named: "NotifyProbe"),
            arguments: arguments,
            environment: environment
        )
        defer { probe.stop() }
        let line = try probe.readLine(timeout: .seconds(60))
        return (line, clock.now - start)
    }
}
