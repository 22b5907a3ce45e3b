internal import CNotify

extension NotificationError {
    /// Classifies the `GError` that `notify_notification_show` reported.
    ///
    /// The `GError` stays owned by the caller; its message is edited in place (the remote
    /// D-Bus error name is stripped) and copied.
    init(showFailure error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            // libnotify returns FALSE without an error only when a precondition check failed.
            self.init(.failed, "libnotify could not show the notification")
            return
        }
        g_dbus_error_strip_remote_error(error)
        let detail = error.pointee.message.map { String(cString: $0) } ?? "no details"
        let domain = error.pointee.domain
        let code = error.pointee.code
        if domain == g_dbus_error_quark() {
            switch code {
            case Self.gdbus(G_DBUS_ERROR_SERVICE_UNKNOWN), Self.gdbus(G_DBUS_ERROR_NAME_HAS_NO_OWNER):
                self.init(.noServer, "no notification server is running on the session bus (\(detail))")
            case Self.gdbus(G_DBUS_ERROR_NO_REPLY), Self.gdbus(G_DBUS_ERROR_TIMEOUT), Self.gdbus(G_DBUS_ERROR_TIMED_OUT):
                self.init(.timedOut, "the notification server did not answer (\(detail))")
            default:
                self.init(.failed, "the notification server refused the notification (\(detail))")
            }
        } else if domain == g_io_error_quark() {
            switch code {
            case Int32(G_IO_ERROR_TIMED_OUT.rawValue):
                self.init(.timedOut, "the notification server did not answer (\(detail))")
            case Int32(G_IO_ERROR_DBUS_ERROR.rawValue):
                self.init(.failed, "the notification server refused the notification (\(detail))")
            default:
                // Connecting to the bus is the only I/O libnotify does before its D-Bus call.
                self.init(.noBus, "cannot reach the session bus (\(detail))")
            }
        } else {
            self.init(.failed, "libnotify could not show the notification (\(detail))")
        }
    }

    private static func gdbus(_ code: GDBusError) -> Int32 {
        Int32(code.rawValue)
    }
}
