#pragma once
// The C libraries syncagent opens when a command first needs them (dlopen) instead of at
// start: `--version`, `check` or `status` never pay for libcurl's TLS stack or GLib, and
// `--version` or `check` not for SQLite.
// Each library's functions are forwarders with the library's own names (see library_table.h);
// Swift loads a library through SharedLibrary before its first call, to turn a missing
// library into an error a person can act on.

/// A library syncagent opens on first use.
typedef enum {
    SYNCAGENT_LIBRARY_CURL,
    SYNCAGENT_LIBRARY_CRYPTO,
    SYNCAGENT_LIBRARY_GIO,
    SYNCAGENT_LIBRARY_NOTIFY,
    SYNCAGENT_LIBRARY_SQLITE,
} syncagent_library;

/// The soname `library` is opened by, e.g. "libcurl.so.4".
const char *syncagent_library_soname(syncagent_library library);

/// The Debian package that installs `library`, e.g. "libcurl4".
const char *syncagent_library_package(syncagent_library library);

/// The libraries opened before `library`, leaves first (see library_table.h's `dependencies`):
/// a `NULL`-terminated list, empty for none.
const char *const *syncagent_library_dependencies(syncagent_library library);

/// Opens `library` and resolves every function syncagent calls in it, once per process (later
/// calls give the first answer, from any thread). 1 when it can be used; 0 when not, with the
/// dynamic loader's words in `*reason` (valid for the life of the process).
int syncagent_library_load(syncagent_library library, const char **reason);

/// Starts opening `libraries` (`count` of them), in that order, on a thread of its own, and
/// returns at once. A library's first use (or syncagent_library_load) then waits until the
/// thread has opened it (and those before it), and gets the same answer as if it had opened it
/// itself. A command that knows what it will need overlaps the loader's work (mapping,
/// relocating, running constructors) with its own.
/// Does nothing where the calling thread may run on one processor only (its affinity): there
/// nothing runs alongside, and each library loads on first use as without it.
void syncagent_libraries_start_loading(const syncagent_library *libraries, unsigned long count);

/// 1 when the calling thread may run on more than one processor, so that a thread it starts can
/// work alongside it; 0 when not.
int syncagent_libraries_can_load_alongside(void);

/// Starts opening what a batch of transfers needs — libcurl (set up as it opens), then
/// libcrypto — as syncagent_libraries_start_loading does. SQLite is not among them: the
/// command's thread opens it with its state, while this thread is in libcurl's tree, which
/// gives way to it between two libraries; that tree is a small re-check's longest path.
void syncagent_libraries_start_loading_for_transfers(void);

/// 1 when a command line (`count` arguments after the program's name) looks like `--once` with
/// transfers, whose libraries are then opened from the program's first instruction on, before
/// the arguments are parsed; 0 when not. A guess from the words alone: a wrong one costs only
/// the opening, and what the command does is decided by the parser as ever.
int syncagent_arguments_may_transfer(const char *const *arguments, unsigned long count);

/// Opens `soname` on its own, as syncagent_library_load opens a library, and closes it again.
/// 1 when it opens; 0 when not, with the loader's words in `reason` (`size` bytes at most).
/// What tests use to see the message for a library that is not installed.
int syncagent_library_probe(const char *soname, char *reason, unsigned long size);
