#pragma once
// Linux interfaces Glibc's Swift module leaves out.
#include <sys/signalfd.h>
