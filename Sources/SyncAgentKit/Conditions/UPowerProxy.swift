internal import CGIO

/// UPower's `/org/freedesktop/UPower` object on the system bus, through a `GDBusProxy`
/// that keeps `OnBattery` cached and follows UPower starting and stopping.
///
/// Owns the proxy (unreferenced in `deinit`). Made, used and released on one thread, whose
/// thread-default main context delivers the proxy's signals (``GLibMainLoopThread``).
/// UPower is not started on demand: desktops run it from boot, and where it does not run
/// the power-supply folder stands in until it appears.
/// - SeeAlso: https://upower.freedesktop.org/docs/UPower.html#UPower:OnBattery
final class UPowerProxy {
    /// Called on the proxy's thread whenever UPower's properties or its presence change.
    var onChange: () -> Void = {}
    private let proxy: UnsafeMutablePointer<GDBusProxy>
    private var handlers: [gulong] = []

    /// Connects to the system bus and starts following UPower, running or not.
    init() throws(ConditionMonitorError) {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusProxyFlags(
            rawValue: G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START.rawValue | G_DBUS_PROXY_FLAGS_GET_INVALIDATED_PROPERTIES.rawValue
        )
        guard let proxy = g_dbus_proxy_new_for_bus_sync(
            G_BUS_TYPE_SYSTEM, flags, nil,
            "org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.UPower",
            nil, &error
        ) else {
            defer { if let error { g_error_free(error) } }
            let detail = error?.pointee.message.map { String(cString: $0) } ?? "no details"
            throw ConditionMonitorError(.noSystemBus, "cannot reach the system bus (\(detail))")
        }
        self.proxy = proxy
        let context = Unmanaged.passUnretained(self).toOpaque()
        handlers = [
            syncagent_signal_connect_properties_changed(proxy, upowerPropertiesChanged, context),
            syncagent_signal_connect_notify(proxy, "notify::g-name-owner", upowerOwnerChanged, context),
        ]
    }

    deinit {
        // The handlers point at this object unretained: they must go before it does.
        for handler in handlers {
            g_signal_handler_disconnect(proxy, handler)
        }
        g_object_unref(proxy)
    }

    /// Whether UPower runs (owns its name on the bus).
    var isRunning: Bool {
        guard let owner = g_dbus_proxy_get_name_owner(proxy) else { return false }
        g_free(owner)
        return true
    }

    /// UPower's `OnBattery`; nil while UPower is not running or has not said.
    var onBattery: Bool? {
        guard let value = g_dbus_proxy_get_cached_property(proxy, "OnBattery") else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_classify(value) == G_VARIANT_CLASS_BOOLEAN else { return nil }
        return g_variant_get_boolean(value) != 0
    }

    fileprivate static func from(_ data: gpointer?) -> UPowerProxy {
        Unmanaged<UPowerProxy>.fromOpaque(data!).takeUnretainedValue()
    }
}

/// `g-properties-changed`: `OnBattery` changed, or UPower went away and took its properties.
private let upowerPropertiesChanged: @convention(c) (
    UnsafeMutablePointer<GDBusProxy>?, OpaquePointer?, UnsafePointer<UnsafePointer<gchar>?>?, gpointer?
) -> Void = { _, _, _, data in
    UPowerProxy.from(data).onChange()
}

/// `notify::g-name-owner`: UPower started (its properties are loaded by now) or stopped.
private let upowerOwnerChanged: @convention(c) (
    UnsafeMutablePointer<GObject>?, UnsafeMutablePointer<GParamSpec>?, gpointer?
) -> Void = { _, _, data in
    UPowerProxy.from(data).onChange()
}
