#pragma once
// Linux interfaces Glibc's Swift module leaves out: signalfd, timerfd, syncfs, O_DIRECT,
// O_TMPFILE, O_PATH, fstatfs, SO_COOKIE.
#include <sys/signalfd.h>
#include <sys/vfs.h>
#include <sys/timerfd.h>
#include <fcntl.h>
#include <sys/socket.h>

// Glibc declares syncfs only under _GNU_SOURCE, which its Swift module is built without (a
// define here would come too late: the headers are already in that module). This is glibc's
// own declaration, unchanged since it appeared in glibc 2.14.
extern int syncfs(int fd);

// O_DIRECT for open(2) and fcntl(2): glibc defines each architecture's value as __O_DIRECT.
static const int syncagent_O_DIRECT = __O_DIRECT;

// O_TMPFILE for open(2): a file with no name in the given folder, named later with linkat(2).
static const int syncagent_O_TMPFILE = __O_TMPFILE | O_DIRECTORY;

// O_PATH for open(2): a descriptor that only names a file or folder, for the *at calls.
static const int syncagent_O_PATH = __O_PATH;

// SO_COOKIE for getsockopt(2): a number the kernel gives one socket only (Linux 4.12).
static const int syncagent_SO_COOKIE = SO_COOKIE;

// pipe2(2) and pthread_setname_np(3), likewise declared only under _GNU_SOURCE: glibc's own
// declarations (since 2.9 and 2.12).
#include <pthread.h>
extern int pipe2(int pipefd[2], int flags);
extern int pthread_setname_np(pthread_t thread, const char *name);
