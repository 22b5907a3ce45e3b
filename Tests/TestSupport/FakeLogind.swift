import Foundation

/// A stand-in for systemd-logind on a ``PrivateSystemBus``: `/usr/bin/python3` with GIO owning
/// `org.freedesktop.login1` and answering `Manager.Inhibit(what, who, why, mode)` with a lock —
/// one end of a pipe, whose closing it notices the way logind does.
///
/// ``events`` lists what happened, in order: `inhibit WHAT WHO MODE WHY` for each lock granted
/// and `release N` when the Nth lock (counting from 1) was closed by its holder.
public final class FakeLogind: Sendable {
    private let directory: TemporaryDirectory
    private let process: ChildProcess
    private let eventsPath: String

    /// Starts the fake on `bus`; returns once it owns the name.
    public init(on bus: PrivateSystemBus, startTimeout: Duration = .seconds(20)) throws {
        directory = try TemporaryDirectory(prefix: "syncagent-logind")
        let scriptPath = directory.appending("fake-logind.py")
        eventsPath = directory.appending("events")
        _ = FileManager.default.createFile(atPath: eventsPath, contents: nil)
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let logPath = directory.appending("fake-logind.log")
        process = try ChildProcess(
            "/usr/bin/python3", arguments: [scriptPath, bus.address, eventsPath],
            environment: NotificationBus.environmentWithoutSessionBus(runtimeDirectory: "/nonexistent"),
            standardError: .file(logPath)
        )
        do {
            let line = try process.readLine(timeout: startTimeout)
            guard line == "ready" else { throw TestSupportError("it said \"\(line)\" instead of \"ready\"") }
        } catch {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw TestSupportError("the fake logind did not start: \(error) (log: \(log))")
        }
    }

    deinit {
        stop()
    }

    /// What happened so far, one line per event.
    public var events: [String] {
        ((try? String(contentsOfFile: eventsPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Kills the fake and deletes its directory; doing it twice is harmless.
    public func stop() {
        process.stop()
        directory.remove()
    }

    static let script = #"""
        import os
        import signal
        import sys

        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        address, events_path = sys.argv[1:3]
        XML = """
        <node>
          <interface name="org.freedesktop.login1.Manager">
            <method name="Inhibit">
              <arg name="what" type="s" direction="in"/>
              <arg name="who" type="s" direction="in"/>
              <arg name="why" type="s" direction="in"/>
              <arg name="mode" type="s" direction="in"/>
              <arg name="pipe_fd" type="h" direction="out"/>
            </method>
          </interface>
        </node>
        """
        loop = GLib.MainLoop()
        locks = []


        def record(line):
            with open(events_path, "a") as events:
                events.write(line + "\n")


        def watch(number, read_end):
            def closed(fd, condition):
                record("release %d" % number)
                os.close(fd)
                return False
            GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, read_end, GLib.IOCondition.HUP | GLib.IOCondition.IN, closed)


        def on_call(connection, sender, path, interface, method, parameters, invocation):
            if method != "Inhibit":
                invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
                return
            what, who, why, mode = parameters.unpack()
            read_end, write_end = os.pipe()
            locks.append(read_end)
            record("inhibit %s %s %s %s" % (what, who, mode, why))
            watch(len(locks), read_end)
            fds = Gio.UnixFDList.new_from_array([write_end])
            invocation.return_value_with_unix_fd_list(GLib.Variant("(h)", (0,)), fds)


        def on_acquired(connection, name):
            print("ready", flush=True)


        \#(FakeBusServiceScript.connection)
        node = Gio.DBusNodeInfo.new_for_xml(XML)
        connection.register_object("/org/freedesktop/login1", node.interfaces[0], on_call, None, None)
        Gio.bus_own_name_on_connection(connection, "org.freedesktop.login1", Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_acquired, on_lost)
        loop.run()
        """#
}
