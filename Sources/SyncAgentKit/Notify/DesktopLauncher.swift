internal import CGIO

/// Does what a notification's action says on the desktop: shows files in the file manager,
/// opens a file with its default application. Runs on the ``NotificationThread``.
///
/// The activation token the server sent with the action goes along (as FileManager1's
/// `startup_id`, and as `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID` for a launched
/// application), so the window that opens may take the focus.
enum DesktopLauncher {
    /// Shows `files` selected in their folder through the file manager's
    /// `org.freedesktop.FileManager1.ShowItems` (the folder itself with `ShowFolders` when
    /// there are no files); where no file manager answers on the bus, opens `folder` with
    /// the default application for folders. Throws what went wrong, for the log.
    static func showItems(folder: String, files: [String], token: String?) throws(NotificationError) {
        let method = files.isEmpty ? "ShowFolders" : "ShowItems"
        let uris = try (files.isEmpty ? [folder] : files).map { path throws(NotificationError) in try uri(of: path) }
        if callFileManager(method, uris: uris, token: token) { return }
        try open(folder, token: token)
    }

    /// Opens `path` with the default application for its type (`g_app_info_launch_default_for_uri`).
    static func open(_ path: String, token: String?) throws(NotificationError) {
        let target = try uri(of: path)
        guard let context = g_app_launch_context_new() else {
            fatalError("g_app_launch_context_new returned NULL; GLib aborts on allocation failure, so this cannot happen")
        }
        defer { g_object_unref(context) }
        if let token {
            g_app_launch_context_setenv(context, "XDG_ACTIVATION_TOKEN", token)
            g_app_launch_context_setenv(context, "DESKTOP_STARTUP_ID", token)
        }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(target, context, &error) != 0 { return }
        defer { if let error { g_error_free(error) } }
        let detail = error?.pointee.message.map { String(cString: $0) } ?? "no details"
        throw NotificationError(.failed, "cannot open \(path): \(detail)")
    }

    /// Calls the file manager on the session bus; whether it answered without an error.
    private static func callFileManager(_ method: String, uris: [String], token: String?) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let list = uris.map { g_strdup($0) } + [nil]
        defer { list.forEach { g_free($0) } }
        let arguments = list.withUnsafeBufferPointer { strings in
            strings.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: strings.count) { pointer in
                [g_variant_new_strv(pointer, Int(uris.count)), g_variant_new_string(token ?? "")]
            }
        }
        let parameters = arguments.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1",
            method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil
        )
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }

    /// The `file://` URI of an absolute path.
    private static func uri(of path: String) throws(NotificationError) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(path, nil, &error) else {
            defer { if let error { g_error_free(error) } }
            throw NotificationError(.failed, "cannot name \(path) as a URI")
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}
