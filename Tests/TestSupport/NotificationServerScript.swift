extension NotificationBus {
    /// The test notification server: `/usr/bin/python3` with GIO owning
    /// `org.freedesktop.Notifications` on the bus at argv[1].
    ///
    /// Each `Notify` call is appended to the file at argv[2] as one JSON line before the
    /// reply goes out, so a client that got its answer finds its call recorded. argv[3] is
    /// "recording" (answer every call) or "silent" (record, but never answer anything).
    /// Prints "ready" once it owns the name.
    static let serverScript = #"""
        import json
        import signal
        import sys

        # The test process may have spawned us with SIGTERM blocked; make it work again.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        address, record_path, mode = sys.argv[1:4]

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


        def on_call(connection, sender, path, interface, method, parameters, invocation):
            global last_id
            if method == "Notify":
                record(parameters)
            if mode == "silent":
                unanswered.append(invocation)
            elif method == "Notify":
                last_id += 1
                invocation.return_value(GLib.Variant("(u)", (last_id,)))
            elif method == "GetCapabilities":
                invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
            elif method == "GetServerInformation":
                invocation.return_value(GLib.Variant("(ssss)", ("syncagent-test", "syncagent", "1.0", "1.2")))
            elif method == "CloseNotification":
                (closed_id,) = parameters.unpack()
                connection.emit_signal(None, path, interface, "NotificationClosed", GLib.Variant("(uu)", (closed_id, 3)))
                invocation.return_value(None)


        def on_acquired(connection, name):
            print("ready", flush=True)


        def on_lost(connection, name):
            print("lost the name " + name, file=sys.stderr, flush=True)
            sys.exit(1)


        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        connection.connect("closed", lambda *arguments: loop.quit())
        interface = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
        connection.register_object("/org/freedesktop/Notifications", interface, on_call, None, None)
        Gio.bus_own_name_on_connection(
            connection, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_acquired, on_lost
        )
        loop.run()
        """#
}
