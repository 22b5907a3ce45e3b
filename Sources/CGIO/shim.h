#pragma once
#include <gio/gio.h>

// g_signal_connect and G_OBJECT_TYPE_NAME are macros, which Swift cannot call, and a
// signal handler reaches GLib as an untyped GCallback. One typed forwarder per handler
// signature, so Swift passes a checked @convention(c) function; no logic lives here.

/// A `notify::PROPERTY` handler.
static inline gulong syncagent_signal_connect_notify(
    gpointer instance, const gchar *detailed_signal,
    void (*handler)(GObject *object, GParamSpec *property, gpointer data), gpointer data) {
    return g_signal_connect_data(instance, detailed_signal, G_CALLBACK(handler), data, NULL, 0);
}

/// GDBusProxy's `g-properties-changed`.
static inline gulong syncagent_signal_connect_properties_changed(
    GDBusProxy *proxy,
    void (*handler)(GDBusProxy *proxy, GVariant *changed, const gchar *const *invalidated, gpointer data),
    gpointer data) {
    return g_signal_connect_data(proxy, "g-properties-changed", G_CALLBACK(handler), data, NULL, 0);
}

/// GNetworkMonitor's `network-changed`.
static inline gulong syncagent_signal_connect_network_changed(
    GNetworkMonitor *monitor,
    void (*handler)(GNetworkMonitor *monitor, gboolean available, gpointer data),
    gpointer data) {
    return g_signal_connect_data(monitor, "network-changed", G_CALLBACK(handler), data, NULL, 0);
}

/// The GType name of a GObject instance, e.g. "GNetworkMonitorNM".
static inline const gchar *syncagent_object_type_name(gpointer instance) {
    return G_OBJECT_TYPE_NAME(instance);
}
