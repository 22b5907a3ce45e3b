extension FakeSystemService {
    /// The fake service: `/usr/bin/python3` with GIO. Arguments: bus address, bus name,
    /// object path, interface, and the properties as JSON `{"Name": ["signature", value]}`.
    ///
    /// Exports the object with the properties (read-only, through the standard
    /// `org.freedesktop.DBus.Properties`) and a control interface
    /// `org.syncagent.FakeService` with `Set(s name, v value)`, which stores the value, emits
    /// `PropertiesChanged` and only then replies. Prints "ready" once it owns the name.
    static let script = #"""
        import json
        import signal
        import sys

        # The test process may have spawned us with SIGTERM blocked; make it work again.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        address, bus_name, object_path, interface_name, initial = sys.argv[1:6]
        properties = {name: GLib.Variant(signature, value) for name, (signature, value) in json.loads(initial).items()}

        property_xml = "".join(
            '<property name="%s" type="%s" access="read"/>' % (name, value.get_type_string())
            for name, value in sorted(properties.items())
        )
        XML = """
        <node>
          <interface name="%s">%s</interface>
          <interface name="org.syncagent.FakeService">
            <method name="Set">
              <arg name="name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
          </interface>
        </node>
        """ % (interface_name, property_xml)

        loop = GLib.MainLoop()


        def on_call(connection, sender, path, interface, method, parameters, invocation):
            if interface == "org.syncagent.FakeService" and method == "Set":
                name, value = parameters.unpack()
                if name not in properties:
                    invocation.return_dbus_error("org.syncagent.FakeService.UnknownProperty", name)
                    return
                properties[name] = GLib.Variant(properties[name].get_type_string(), value)
                connection.emit_signal(
                    None, object_path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                    GLib.Variant("(sa{sv}as)", (interface_name, {name: properties[name]}, [])),
                )
                invocation.return_value(None)
            else:
                invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


        def on_get_property(connection, sender, path, interface, name):
            return properties.get(name)


        def on_acquired(connection, name):
            print("ready", flush=True)


        \#(FakeBusServiceScript.connection)
        node = Gio.DBusNodeInfo.new_for_xml(XML)
        for interface in node.interfaces:
            connection.register_object(object_path, interface, on_call, on_get_property, None)
        Gio.bus_own_name_on_connection(
            connection, bus_name, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_acquired, on_lost
        )
        loop.run()
        """#
}
