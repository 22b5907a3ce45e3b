#pragma once
// Linux interfaces Glibc's Swift module leaves out: signalfd, timerfd.
#include <sys/signalfd.h>
#include <sys/timerfd.h>
