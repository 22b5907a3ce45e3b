#pragma once
// libnotify for the notification itself; GIO for the GError domains (GDBus, GIO) that
// notify_notification_show reports through.
#include <libnotify/notify.h>
#include <gio/gio.h>
