#pragma once
// One library opened on first use: its soname, the functions syncagent calls in it, and the
// pointers dlsym gave for them. The forwarders each library's file defines have the library's
// own names, so the Swift code calls libcurl or GLib as if they were linked.
#include <pthread.h>
#include <stddef.h>
#include "syncagent_libraries.h"

struct syncagent_library_table {
    const char *soname;
    /// The Debian package that installs it, for the message when it cannot be loaded.
    const char *package;
    /// The functions to resolve, and where their addresses go (index for index).
    const char *const *names;
    void **functions;
    size_t count;
    /// Libraries it needs, to open one by one before it, each after those it needs itself
    /// (leaves first; `NULL`-terminated, or `NULL` for none). Only a matter of speed: the
    /// loader looks each symbol a library uses up in the program, then in the tree of the
    /// library being opened, in order, so a library opened within libcurl's tree of thirty
    /// searches most of it for every symbol, and one opened on its own only its own few; every
    /// symbol binds to the same definition either way (LD_DEBUG=bindings: no difference). One
    /// that does not open is passed over: opening the library itself then says why.
    const char *const *dependencies;
    /// Run once every function is resolved, before any is handed out (under the loader's
    /// lock, so before any call into the library); `NULL` for none.
    void (*prepare)(struct syncagent_library_table *table);
    /// Told, on the thread that opens the table, of each of `dependencies` as it opens (its
    /// soname and handle, or a `NULL` handle when it did not open), then once with a `NULL`
    /// soname when none is left; `NULL` for no one to tell. What a thread that waits for the
    /// table can do meanwhile (`while_opened_elsewhere`) needs to know it.
    void (*dependency_opened)(const char *soname, void *handle);
    /// Run by a thread that needs the table while another thread is opening it, before it
    /// waits for that thread: work of the table's set-up that can be done alongside the rest
    /// of the opening, instead of waiting idle; `NULL` for none.
    void (*while_opened_elsewhere)(void);
    /// 1 from the moment a thread starts opening the table.
    int opening;
    /// Held by the one thread that opens the table: the table's own, so that the command's
    /// thread opens SQLite while a loading thread holds libcurl's.
    pthread_mutex_t lock;
    /// 0 before the first load, 1 loaded, -1 failed (then `reason` says why).
    int state;
    char reason[512];
};

/// Opens the library and looks up every function in the table, once (thread-safe); 1 when
/// they can be called.
int syncagent_table_load(struct syncagent_library_table *table);

/// The function at `index`, loading the table first. A forwarder called for a library that
/// cannot be loaded ends the process with the reason: the Swift side loads each library before
/// its first call, so this is reached only by a call that skipped that.
void *syncagent_table_function(struct syncagent_library_table *table, size_t index);

// The X-macros a library's file lists its functions with:
//   FORWARD(return type, name, (parameters), (arguments)), FORWARD_VOID(name, (parameters), (arguments)),
//   and RESOLVED(name) for a C-variadic function, which the file calls through
//   SYNCAGENT_FUNCTION(table, name) from typed forwarders of its own.
// The forwarders are hidden: the executable exports its symbols (for backtraces), and an
// exported `g_free` would be called by GLib itself in place of its own. The name is in
// parentheses so that a function GLib also defines as a macro (g_type_is_a) stays a function.
#define SYNCAGENT_INDEX(returns, name, parameters, arguments) syncagent_index_##name,
#define SYNCAGENT_INDEX_VOID(name, parameters, arguments) syncagent_index_##name,
#define SYNCAGENT_INDEX_ONLY(name) syncagent_index_##name,
#define SYNCAGENT_NAME(returns, name, parameters, arguments) #name,
#define SYNCAGENT_NAME_VOID(name, parameters, arguments) #name,
#define SYNCAGENT_NAME_ONLY(name) #name,
#define SYNCAGENT_NOTHING(name)
#define SYNCAGENT_FORWARD(table, returns, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) returns (name) parameters { return SYNCAGENT_FUNCTION(table, name) arguments; }
#define SYNCAGENT_FORWARD_VOID(table, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void (name) parameters { SYNCAGENT_FUNCTION(table, name) arguments; }

/// Defines `table` for `soname` (from Debian's `package`) and the forwarders of every function in LIST; the file first
/// defines table_FORWARD and table_FORWARD_VOID as SYNCAGENT_FORWARD(_VOID) with its table.
#define SYNCAGENT_LIBRARY(table, soname_, package_, LIST) SYNCAGENT_PREPARED_LIBRARY(table, soname_, package_, LIST, NULL)

/// SYNCAGENT_LIBRARY with a function the loader runs once the library's functions are resolved.
#define SYNCAGENT_PREPARED_LIBRARY(table, soname_, package_, LIST, prepare_) SYNCAGENT_LIBRARY_WITH(table, soname_, package_, LIST, prepare_, NULL)

/// SYNCAGENT_PREPARED_LIBRARY with the libraries to open before it (see `dependencies`).
#define SYNCAGENT_LIBRARY_WITH(table, soname_, package_, LIST, prepare_, dependencies_) \
    SYNCAGENT_LIBRARY_OVERLAPPED(table, soname_, package_, LIST, prepare_, dependencies_, NULL, NULL)

/// SYNCAGENT_LIBRARY_WITH with set-up work a waiting thread does alongside the opening (see
/// `dependency_opened` and `while_opened_elsewhere`).
#define SYNCAGENT_LIBRARY_OVERLAPPED(table, soname_, package_, LIST, prepare_, dependencies_, dependency_opened_, while_opened_elsewhere_) \
    enum { LIST(SYNCAGENT_INDEX, SYNCAGENT_INDEX_VOID, SYNCAGENT_INDEX_ONLY) table##_count }; \
    static const char *const table##_names[] = { LIST(SYNCAGENT_NAME, SYNCAGENT_NAME_VOID, SYNCAGENT_NAME_ONLY) }; \
    static void *table##_functions[table##_count]; \
    __attribute__((visibility("hidden"))) struct syncagent_library_table table = { \
        .soname = soname_, .package = package_, .names = table##_names, .functions = table##_functions, .count = table##_count, \
        .prepare = prepare_, .dependencies = dependencies_, .dependency_opened = dependency_opened_, \
        .while_opened_elsewhere = while_opened_elsewhere_, .lock = PTHREAD_MUTEX_INITIALIZER, \
    }; \
    LIST(table##_FORWARD, table##_FORWARD_VOID, SYNCAGENT_NOTHING)

/// The function at `index` of a loaded table at once, else through syncagent_table_function.
/// Inlined into every forwarder: a re-check of 10,000 files makes 650,000 calls into libcurl
/// and SQLite, and a call into the loader for each cost some 26 instructions more.
static inline void *syncagent_loaded_function(struct syncagent_library_table *table, size_t index) {
    if (__builtin_expect(__atomic_load_n(&table->state, __ATOMIC_ACQUIRE) == 1, 1)) return table->functions[index];
    return syncagent_table_function(table, index);
}

/// The resolved pointer of `name` in `table`, typed as the header declares it.
#define SYNCAGENT_FUNCTION(table, name) ((__typeof__(&name))syncagent_loaded_function(&table, syncagent_index_##name))
