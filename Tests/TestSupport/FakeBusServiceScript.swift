/// Python the fake D-Bus services of the tests share (logind, the system services, the
/// notification server), each a `python3` script with GIO on a private bus.
enum FakeBusServiceScript {
    /// Defines `on_lost` (a service that loses its name ends, saying so) and opens
    /// `connection` to the bus at `address`, ending `loop` when the bus goes away. The script
    /// defines `address` and `loop` before it.
    static let connection = #"""
        def on_lost(connection, name):
            print("lost the name " + name, file=sys.stderr, flush=True)
            sys.exit(1)


        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        connection.connect("closed", lambda *arguments: loop.quit())
        """#
}
