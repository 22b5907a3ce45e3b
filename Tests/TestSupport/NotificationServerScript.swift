extension NotificationBus {
    /// The test notification server: `/usr/bin/python3` with GIO owning
    /// `org.freedesktop.Notifications` on the bus at argv[1].
    ///
    /// Each `Notify` call is appended to the file at argv[2] as one JSON line before the
    /// reply goes out, so a client that got its answer finds its call recorded. argv[3] is
    /// "recording" (answer every call) or "silent" (record, but never answer anything).
    /// argv[4] is the capabilities `GetCapabilities` answers, comma-separated. argv[5] is a
    /// file for every other call — `CloseNotification`, and `ShowItems`/`ShowFolders` on
    /// `org.freedesktop.FileManager1`, which it owns too when argv[6] is "file-manager" — one
    /// JSON line each, `{"method": …, "arguments": […]}`. A test makes it send what a server
    /// sends when the user picks an action by calling `org.syncagent.TestServer.Invoke(id,
    /// key, token)`: `ActivationToken` (unless token is empty), then `ActionInvoked`.
    /// Prints "ready" once it owns its names.
    static let serverScript = #"""
        import json
        import signal
        import sys

        # The test process may have spawned us with SIGTERM blocked; make it work again.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        address, record_path, mode, capabilities, calls_path, file_manager = sys.argv[1:7]

        INTERFACE = """
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="Notify">
              <arg name="app_name" type="s" direction="in"/>
              <arg name="replaces_id" type="u" direction="in"/>
              <arg name="app_icon" type="s" direction="in"/>
              <arg name="summary" type="s" direction="in"/>
              <arg name="body" type="s" direction="in"/>
              <arg name="actions" type="as" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/>
              <arg name="expire_timeout" type="i" direction="in"/>
              <arg name="id" type="u" direction="out"/>
            </method>
            <method name="GetCapabilities">
              <arg name="capabilities" type="as" direction="out"/>
            </method>
            <method name="GetServerInformation">
              <arg name="name" type="s" direction="out"/>
              <arg name="vendor" type="s" direction="out"/>
              <arg name="version" type="s" direction="out"/>
              <arg name="spec_version" type="s" direction="out"/>
            </method>
            <method name="CloseNotification">
              <arg name="id" type="u" direction="in"/>
            </method>
            <signal name="NotificationClosed">
              <arg name="id" type="u"/>
              <arg name="reason" type="u"/>
            </signal>
            <signal name="ActionInvoked">
              <arg name="id" type="u"/>
              <arg name="action_key" type="s"/>
            </signal>
            <signal name="ActivationToken">
              <arg name="id" type="u"/>
              <arg name="activation_token" type="s"/>
            </signal>
          </interface>
          <interface name="org.syncagent.TestServer">
            <method name="Invoke">
              <arg name="id" type="u" direction="in"/>
              <arg name="action_key" type="s" direction="in"/>
              <arg name="activation_token" type="s" direction="in"/>
            </method>
          </interface>
        </node>
        """

        FILE_MANAGER = """
        <node>
          <interface name="org.freedesktop.FileManager1">
            <method name="ShowItems">
              <arg name="uris" type="as" direction="in"/>
              <arg name="startup_id" type="s" direction="in"/>
            </method>
            <method name="ShowFolders">
              <arg name="uris" type="as" direction="in"/>
              <arg name="startup_id" type="s" direction="in"/>
            </method>
          </interface>
        </node>
        """

        loop = GLib.MainLoop()
        unanswered = []  # kept so GIO never replies for us when an invocation is freed
        last_id = 0


        def plain(value):
            if isinstance(value, (bool, int, str)):
                return value
            return repr(value)


        def record(parameters):
            app_name, replaces_id, app_icon, summary, body, actions, hints, timeout = parameters.unpack()
            entry = {
                "app_name": app_name,
                "replaces_id": replaces_id,
                "app_icon": app_icon,
                "summary": summary,
                "body": body,
                "actions": list(actions),
                "hints": {key: plain(value) for key, value in hints.items()},
                "expire_timeout": timeout,
            }
            with open(record_path, "a", encoding="utf-8") as file:
                file.write(json.dumps(entry) + "\n")


        def record_call(method, parameters):
            with open(calls_path, "a", encoding="utf-8") as file:
                file.write(json.dumps({"method": method, "arguments": [plain_deep(value) for value in parameters.unpack()]}) + "\n")


        def plain_deep(value):
            if isinstance(value, (list, tuple)):
                return [plain_deep(item) for item in value]
            return plain(value)


        def on_call(connection, sender, path, interface, method, parameters, invocation):
            global last_id
            if interface == "org.syncagent.TestServer":
                notification_id, key, token = parameters.unpack()
                notifications = "org.freedesktop.Notifications"
                if token:
                    connection.emit_signal(None, "/org/freedesktop/Notifications", notifications, "ActivationToken", GLib.Variant("(us)", (notification_id, token)))
                connection.emit_signal(None, "/org/freedesktop/Notifications", notifications, "ActionInvoked", GLib.Variant("(us)", (notification_id, key)))
                invocation.return_value(None)
                return
            if interface == "org.freedesktop.FileManager1":
                record_call(method, parameters)
                invocation.return_value(None)
                return
            if method == "Notify":
                record(parameters)
            elif method == "CloseNotification":
                record_call(method, parameters)
            if mode == "silent":
                unanswered.append(invocation)
            elif method == "Notify":
                replaces_id = parameters.unpack()[1]
                if replaces_id == 0:
                    last_id += 1
                invocation.return_value(GLib.Variant("(u)", (replaces_id or last_id,)))
            elif method == "GetCapabilities":
                invocation.return_value(GLib.Variant("(as)", (capabilities.split(","),)))
            elif method == "GetServerInformation":
                invocation.return_value(GLib.Variant("(ssss)", ("syncagent-test", "syncagent", "1.0", "1.2")))
            elif method == "CloseNotification":
                (closed_id,) = parameters.unpack()
                connection.emit_signal(None, path, interface, "NotificationClosed", GLib.Variant("(uu)", (closed_id, 3)))
                invocation.return_value(None)


        names_to_own = 2 if file_manager == "file-manager" else 1


        def on_acquired(connection, name):
            global names_to_own
            names_to_own -= 1
            if names_to_own == 0:
                print("ready", flush=True)


        \#(FakeBusServiceScript.connection)
        for interface in Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces:
            connection.register_object("/org/freedesktop/Notifications", interface, on_call, None, None)
        Gio.bus_own_name_on_connection(
            connection, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_acquired, on_lost
        )
        if file_manager == "file-manager":
            interface = Gio.DBusNodeInfo.new_for_xml(FILE_MANAGER).interfaces[0]
            connection.register_object("/org/freedesktop/FileManager1", interface, on_call, None, None)
            Gio.bus_own_name_on_connection(
                connection, "org.freedesktop.FileManager1", Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_acquired, on_lost
            )
        loop.run()
        """#
}
