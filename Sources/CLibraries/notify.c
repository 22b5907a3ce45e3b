// libnotify (libnotify4, libnotify.so.4), opened on first use: see library_table.h. It brings
// GLib's family as its own dependencies, the same libraries gio.c opens.
#include <libnotify/notify.h>

#include "library_table.h"

#define NOTIFY_FUNCTIONS(FORWARD, FORWARD_VOID, RESOLVED) \
    FORWARD(gboolean, notify_init, (const char *a0), (a0)) \
    FORWARD(GList *, notify_get_server_caps, (void), ()) \
    FORWARD(NotifyNotification *, notify_notification_new, (const char *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    FORWARD(gboolean, notify_notification_update, (NotifyNotification *a0, const char *a1, const char *a2, const char *a3), (a0, a1, a2, a3)) \
    FORWARD(gboolean, notify_notification_show, (NotifyNotification *a0, GError **a1), (a0, a1)) \
    FORWARD(gboolean, notify_notification_close, (NotifyNotification *a0, GError **a1), (a0, a1)) \
    FORWARD_VOID(notify_notification_add_action, (NotifyNotification *a0, const char *a1, const char *a2, NotifyActionCallback a3, gpointer a4, GFreeFunc a5), (a0, a1, a2, a3, a4, a5)) \
    FORWARD_VOID(notify_notification_clear_actions, (NotifyNotification *a0), (a0)) \
    FORWARD_VOID(notify_notification_clear_hints, (NotifyNotification *a0), (a0)) \
    FORWARD_VOID(notify_notification_set_category, (NotifyNotification *a0, const char *a1), (a0, a1)) \
    FORWARD_VOID(notify_notification_set_hint, (NotifyNotification *a0, const char *a1, GVariant *a2), (a0, a1, a2)) \
    FORWARD_VOID(notify_notification_set_hint_string, (NotifyNotification *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    FORWARD_VOID(notify_notification_set_urgency, (NotifyNotification *a0, NotifyUrgency a1), (a0, a1)) \
    FORWARD(const char *, notify_notification_get_activation_token, (NotifyNotification *a0), (a0))

#define syncagent_notify_FORWARD(returns, name, parameters, arguments) SYNCAGENT_FORWARD(syncagent_notify, returns, name, parameters, arguments)
#define syncagent_notify_FORWARD_VOID(name, parameters, arguments) SYNCAGENT_FORWARD_VOID(syncagent_notify, name, parameters, arguments)
SYNCAGENT_LIBRARY(syncagent_notify, "libnotify.so.4", "libnotify4", NOTIFY_FUNCTIONS)
