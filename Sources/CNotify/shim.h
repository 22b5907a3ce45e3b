#pragma once
#include <libnotify/notify.h>
