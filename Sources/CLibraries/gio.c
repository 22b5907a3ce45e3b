// GLib, GObject and GIO (libglib2.0-0), opened on first use through libgio-2.0.so.0, whose
// dependencies bring the other two: see library_table.h. One family, one handle.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#include "library_table.h"

#define GIO_FUNCTIONS(FORWARD, FORWARD_VOID, RESOLVED) \
    FORWARD_VOID(g_free, (gpointer a0), (a0)) \
    FORWARD(gchar *, g_strdup, (const gchar *a0), (a0)) \
    FORWARD_VOID(g_error_free, (GError *a0), (a0)) \
    FORWARD_VOID(g_list_free_full, (GList *a0, GDestroyNotify a1), (a0, a1)) \
    FORWARD(guint, g_log_set_handler, (const gchar *a0, GLogLevelFlags a1, GLogFunc a2, gpointer a3), (a0, a1, a2, a3)) \
    FORWARD(gchar *, g_filename_to_uri, (const gchar *a0, const gchar *a1, GError **a2), (a0, a1, a2)) \
    FORWARD(gboolean, g_type_is_a, (GType a0, GType a1), (a0, a1)) \
    FORWARD(const gchar *, g_type_name, (GType a0), (a0)) \
    FORWARD_VOID(g_object_unref, (gpointer a0), (a0)) \
    FORWARD(GObject *, g_object_new_with_properties, (GType a0, guint a1, const char **a2, const GValue *a3), (a0, a1, a2, a3)) \
    FORWARD(gulong, g_signal_connect_data, (gpointer a0, const gchar *a1, GCallback a2, gpointer a3, GClosureNotify a4, GConnectFlags a5), (a0, a1, a2, a3, a4, a5)) \
    FORWARD_VOID(g_signal_handler_disconnect, (gpointer a0, gulong a1), (a0, a1)) \
    FORWARD(GThread *, g_thread_try_new, (const gchar *a0, GThreadFunc a1, gpointer a2, GError **a3), (a0, a1, a2, a3)) \
    FORWARD(gpointer, g_thread_join, (GThread *a0), (a0)) \
    FORWARD(GThread *, g_thread_self, (void), ()) \
    FORWARD(GMainContext *, g_main_context_new, (void), ()) \
    FORWARD_VOID(g_main_context_unref, (GMainContext *a0), (a0)) \
    FORWARD(gboolean, g_main_context_iteration, (GMainContext *a0, gboolean a1), (a0, a1)) \
    FORWARD_VOID(g_main_context_invoke_full, (GMainContext *a0, gint a1, GSourceFunc a2, gpointer a3, GDestroyNotify a4), (a0, a1, a2, a3, a4)) \
    FORWARD_VOID(g_main_context_push_thread_default, (GMainContext *a0), (a0)) \
    FORWARD_VOID(g_main_context_pop_thread_default, (GMainContext *a0), (a0)) \
    FORWARD(GMainLoop *, g_main_loop_new, (GMainContext *a0, gboolean a1), (a0, a1)) \
    FORWARD_VOID(g_main_loop_run, (GMainLoop *a0), (a0)) \
    FORWARD_VOID(g_main_loop_quit, (GMainLoop *a0), (a0)) \
    FORWARD_VOID(g_main_loop_unref, (GMainLoop *a0), (a0)) \
    FORWARD(GSource *, g_idle_source_new, (void), ()) \
    FORWARD(guint, g_source_attach, (GSource *a0, GMainContext *a1), (a0, a1)) \
    FORWARD_VOID(g_source_set_callback, (GSource *a0, GSourceFunc a1, gpointer a2, GDestroyNotify a3), (a0, a1, a2, a3)) \
    FORWARD_VOID(g_source_unref, (GSource *a0), (a0)) \
    FORWARD(GVariant *, g_variant_new_string, (const gchar *a0), (a0)) \
    FORWARD(GVariant *, g_variant_new_strv, (const gchar *const *a0, gssize a1), (a0, a1)) \
    FORWARD(GVariant *, g_variant_new_tuple, (GVariant *const *a0, gsize a1), (a0, a1)) \
    FORWARD(GVariant *, g_variant_new_boolean, (gboolean a0), (a0)) \
    FORWARD_VOID(g_variant_unref, (GVariant *a0), (a0)) \
    FORWARD(GVariantClass, g_variant_classify, (GVariant *a0), (a0)) \
    FORWARD(gboolean, g_variant_get_boolean, (GVariant *a0), (a0)) \
    FORWARD(gint32, g_variant_get_handle, (GVariant *a0), (a0)) \
    FORWARD(GVariant *, g_variant_get_child_value, (GVariant *a0, gsize a1), (a0, a1)) \
    FORWARD(gsize, g_variant_n_children, (GVariant *a0), (a0)) \
    FORWARD(GQuark, g_io_error_quark, (void), ()) \
    FORWARD(GQuark, g_dbus_error_quark, (void), ()) \
    FORWARD(gboolean, g_dbus_error_strip_remote_error, (GError *a0), (a0)) \
    FORWARD(GDBusConnection *, g_bus_get_sync, (GBusType a0, GCancellable *a1, GError **a2), (a0, a1, a2)) \
    FORWARD(GVariant *, g_dbus_connection_call_sync, (GDBusConnection *a0, const gchar *a1, const gchar *a2, const gchar *a3, const gchar *a4, GVariant *a5, const GVariantType *a6, GDBusCallFlags a7, gint a8, GCancellable *a9, GError **a10), (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)) \
    FORWARD(GVariant *, g_dbus_connection_call_with_unix_fd_list_sync, (GDBusConnection *a0, const gchar *a1, const gchar *a2, const gchar *a3, const gchar *a4, GVariant *a5, const GVariantType *a6, GDBusCallFlags a7, gint a8, GUnixFDList *a9, GUnixFDList **a10, GCancellable *a11, GError **a12), (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)) \
    FORWARD(gint, g_unix_fd_list_get, (GUnixFDList *a0, gint a1, GError **a2), (a0, a1, a2)) \
    FORWARD(GDBusProxy *, g_dbus_proxy_new_for_bus_sync, (GBusType a0, GDBusProxyFlags a1, GDBusInterfaceInfo *a2, const gchar *a3, const gchar *a4, const gchar *a5, GCancellable *a6, GError **a7), (a0, a1, a2, a3, a4, a5, a6, a7)) \
    FORWARD(GVariant *, g_dbus_proxy_get_cached_property, (GDBusProxy *a0, const gchar *a1), (a0, a1)) \
    FORWARD(gchar *, g_dbus_proxy_get_name_owner, (GDBusProxy *a0), (a0)) \
    FORWARD(gboolean, g_app_info_launch_default_for_uri, (const char *a0, GAppLaunchContext *a1, GError **a2), (a0, a1, a2)) \
    FORWARD(GAppLaunchContext *, g_app_launch_context_new, (void), ()) \
    FORWARD_VOID(g_app_launch_context_setenv, (GAppLaunchContext *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    FORWARD(GType, g_initable_get_type, (void), ()) \
    FORWARD(gboolean, g_initable_init, (GInitable *a0, GCancellable *a1, GError **a2), (a0, a1, a2)) \
    FORWARD(const char *, g_io_extension_get_name, (GIOExtension *a0), (a0)) \
    FORWARD(GType, g_io_extension_get_type, (GIOExtension *a0), (a0)) \
    FORWARD(GList *, g_io_extension_point_get_extensions, (GIOExtensionPoint *a0), (a0)) \
    FORWARD(GIOExtensionPoint *, g_io_extension_point_lookup, (const char *a0), (a0)) \
    FORWARD(GProxy *, g_proxy_get_default_for_protocol, (const gchar *a0), (a0)) \
    FORWARD(GNetworkMonitor *, g_network_monitor_get_default, (void), ()) \
    FORWARD(GNetworkConnectivity, g_network_monitor_get_connectivity, (GNetworkMonitor *a0), (a0)) \
    FORWARD(gboolean, g_network_monitor_get_network_available, (GNetworkMonitor *a0), (a0)) \
    FORWARD(gboolean, g_network_monitor_get_network_metered, (GNetworkMonitor *a0), (a0))

#define syncagent_gio_FORWARD(returns, name, parameters, arguments) SYNCAGENT_FORWARD(syncagent_gio, returns, name, parameters, arguments)
#define syncagent_gio_FORWARD_VOID(name, parameters, arguments) SYNCAGENT_FORWARD_VOID(syncagent_gio, name, parameters, arguments)
SYNCAGENT_LIBRARY(syncagent_gio, "libgio-2.0.so.0", "libglib2.0-0", GIO_FUNCTIONS)
