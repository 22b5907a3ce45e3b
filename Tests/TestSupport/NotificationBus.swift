import Foundation

/// A private D-Bus session bus with a test notification server on it, for one test.
///
/// Starts `dbus-daemon` with a config of its own: it listens on a socket in a temporary
/// directory and has no service directories, so nothing (no real notification daemon) is
/// D-Bus-activated behind the test's back. Then, depending on ``Server``, starts a
/// `/usr/bin/python3` server that owns `org.freedesktop.Notifications` and records every
/// `Notify` call, and returns only once it owns the name.
///
/// Everything runs as ``ChildProcess``es: ``stop()``, the last reference going away, or the
/// test process dying kills them all with SIGKILL; ``stop()`` also deletes the directory.
///
/// GDBus reads the bus address once per process, so point a client process at the bus
/// through ``clientEnvironment`` rather than changing this process's environment.
public final class NotificationBus: Sendable {
    /// What owns `org.freedesktop.Notifications` on the bus.
    public enum Server: Sendable {
        /// A server that answers every call and records each `Notify`.
        case recording
        /// A server that owns the name and records each `Notify` but never answers any call.
        case silent
        /// Nothing: calls fail with `org.freedesktop.DBus.Error.ServiceUnknown`.
        case none
    }

    /// What the server answers to `GetCapabilities`: as a real server does, or the minimum.
    public enum Capabilities: String, Sendable, CaseIterable {
        /// "actions" and "body" only: no markup, no sound.
        case minimal
        /// dunst 1.9: actions (in its context menu), markup, no sound.
        case dunst
        /// GNOME Shell 43: actions, markup and sounds.
        case gnomeShell
        /// xfce4-notifyd 0.6: action buttons, markup, no sound.
        case xfce4Notifyd

        /// The capability names it lists.
        public var names: [String] {
            switch self {
            case .minimal: ["actions", "body"]
            case .dunst: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence", "x-dunst-stack-tag", "x-canonical-private-synchronous"]
            case .gnomeShell: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"]
            case .xfce4Notifyd: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "x-canonical-private-icon-only"]
            }
        }
    }

    /// A call other than `Notify` the server received: `CloseNotification`, or
    /// `ShowItems`/`ShowFolders` on the file manager it plays.
    public struct RecordedCall: Decodable, Sendable, Equatable {
        public enum Argument: Decodable, Sendable, Equatable {
            case integer(Int)
            case string(String)
            case strings([String])

            public init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let value = try? container.decode(Int.self) {
                    self = .integer(value)
                } else if let value = try? container.decode([String].self) {
                    self = .strings(value)
                } else {
                    self = .string(try container.decode(String.self))
                }
            }
        }

        public var method: String
        public var arguments: [Argument]

        public init(method: String, arguments: [Argument]) {
            self.method = method
            self.arguments = arguments
        }
    }

    /// The bus address, as `DBUS_SESSION_BUS_ADDRESS` takes it.
    public let address: String
    let directory: TemporaryDirectory
    /// The server appends each `Notify` call here as one JSON line.
    private let recordPath: String
    /// The server appends every other call here as one JSON line.
    private let callsPath: String
    let daemon: ChildProcess
    let server: ChildProcess?

    /// Starts the bus and, unless `server` is ``Server/none``, the notification server that
    /// lists `capabilities` — and owns `org.freedesktop.FileManager1` too with `fileManager`;
    /// returns once the server owns its names, or throws after `startTimeout`.
    public init(
        server: Server = .recording, capabilities: Capabilities = .minimal, fileManager: Bool = false,
        startTimeout: Duration = .seconds(20)
    ) throws {
        directory = try TemporaryDirectory(prefix: "syncagent-bus")
        recordPath = directory.appending("notifications.jsonl")
        callsPath = directory.appending("calls.jsonl")
        let configPath = directory.appending("bus.conf")
        try Self.config(socket: directory.appending("bus")).write(toFile: configPath, atomically: true, encoding: .utf8)
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon",
            arguments: ["--nofork", "--nopidfile", "--config-file=\(configPath)", "--print-address=1"],
            environment: Self.quietEnvironment,
            standardError: .file(directory.appending("dbus-daemon.log"))
        )
        do {
            address = try daemon.readLine(timeout: startTimeout)
        } catch {
            throw TestSupportError("dbus-daemon did not start: \(error) \(directory.logs(of: "dbus-daemon"))")
        }

        let mode: String
        switch server {
        case .recording: mode = "recording"
        case .silent: mode = "silent"
        case .none:
            self.server = nil
            return
        }
        let scriptPath = directory.appending("notification-server.py")
        try Self.serverScript.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let python = try ChildProcess(
            "/usr/bin/python3",
            arguments: [
                scriptPath, address, recordPath, mode, capabilities.names.joined(separator: ","), callsPath,
                fileManager ? "file-manager" : "no-file-manager",
            ],
            environment: Self.quietEnvironment,
            standardError: .file(directory.appending("notification-server.log"))
        )
        self.server = python
        do {
            let line = try python.readLine(timeout: startTimeout)
            guard line == "ready" else {
                throw TestSupportError("it said \"\(line)\" instead of \"ready\"")
            }
        } catch {
            throw TestSupportError("the notification server did not start: \(error) \(directory.logs(of: "notification-server"))")
        }
    }

    deinit {
        stop()
    }

    /// The environment for a client process that should talk to this bus and nothing else:
    /// this process's environment with the bus address set, no X11 or Wayland display (so
    /// GLib never autolaunches a bus), and `XDG_RUNTIME_DIR` in the bus's own directory (so
    /// GLib never falls back to the user's `$XDG_RUNTIME_DIR/bus`).
    public var clientEnvironment: [String: String] {
        Self.environmentWithoutSessionBus(runtimeDirectory: directory.path)
            .merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    /// Every `Notify` call the server received so far, oldest first.
    public func recordedNotifications() throws -> [RecordedNotification] {
        guard FileManager.default.fileExists(atPath: recordPath) else { return [] }
        let text = try String(contentsOfFile: recordPath, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { line in
            try decoder.decode(RecordedNotification.self, from: Data(line.utf8))
        }
    }

    /// Every call but `Notify` the server received so far, oldest first.
    public func recordedCalls() throws -> [RecordedCall] {
        guard FileManager.default.fileExists(atPath: callsPath) else { return [] }
        let text = try String(contentsOfFile: callsPath, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONDecoder().decode(RecordedCall.self, from: Data(line.utf8))
        }
    }

    /// Makes the server do what it does when the user picks action `key` on notification
    /// `id`: send `ActivationToken` with `token` (unless it is empty), then `ActionInvoked`.
    public func invokeAction(id: UInt32, key: String, token: String = "") throws {
        let client = try ChildProcess("/usr/bin/gdbus", arguments: [
            "call", "--address", address, "--dest", "org.freedesktop.Notifications",
            "--object-path", "/org/freedesktop/Notifications", "--method", "org.syncagent.TestServer.Invoke",
            String(id), key, token,
        ], environment: clientEnvironment)
        defer { client.stop() }
        let reply = try client.readLine(timeout: .seconds(20))
        guard reply == "()" else { throw TestSupportError("gdbus said \"\(reply)\" when asked to invoke \(key) on \(id)") }
    }

    /// Kills the server and the bus with SIGKILL and deletes their directory; doing it
    /// twice is harmless.
    public func stop() {
        server?.stop()
        daemon.stop()
        directory.remove()
    }

    /// An environment with no way to reach any session bus: no bus address, no display,
    /// and `XDG_RUNTIME_DIR` set to `runtimeDirectory`, which should hold no `bus` socket.
    public static func environmentWithoutSessionBus(runtimeDirectory: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"] {
            environment[name] = nil
        }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return environment
    }

    /// The bus and the server get the address they need as arguments; keep every other
    /// bus and display out of their environment.
    private static var quietEnvironment: [String: String] {
        environmentWithoutSessionBus(runtimeDirectory: "/nonexistent")
    }

    /// A session bus config that allows everything on one socket and activates nothing.
    private static func config(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }
}

extension TemporaryDirectory {
    /// The log a helper wrote to `<name>.log` in this directory, for an error message.
    fileprivate func logs(of name: String) -> String {
        let log = (try? String(contentsOfFile: appending("\(name).log"), encoding: .utf8)) ?? ""
        return log.isEmpty ? "(\(name) logged nothing)" : "(\(name) logged: \(log.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }
}
