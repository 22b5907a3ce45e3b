// SQLite (libsqlite3-0, libsqlite3.so.0), opened on first use: see library_table.h. Only the
// commands that read or write the saved state open it; `--version` and `check` do not.
#include <sqlite3.h>

#include "library_table.h"

#define SQLITE_FUNCTIONS(FORWARD, FORWARD_VOID, RESOLVED) \
    FORWARD(int, sqlite3_open_v2, (const char *a0, sqlite3 **a1, int a2, const char *a3), (a0, a1, a2, a3)) \
    FORWARD(int, sqlite3_close_v2, (sqlite3 *a0), (a0)) \
    FORWARD(int, sqlite3_busy_timeout, (sqlite3 *a0, int a1), (a0, a1)) \
    FORWARD(int, sqlite3_exec, (sqlite3 *a0, const char *a1, int (*a2)(void *, int, char **, char **), void *a3, char **a4), (a0, a1, a2, a3, a4)) \
    FORWARD(int, sqlite3_get_autocommit, (sqlite3 *a0), (a0)) \
    FORWARD(sqlite3_int64, sqlite3_changes64, (sqlite3 *a0), (a0)) \
    FORWARD(const char *, sqlite3_errmsg, (sqlite3 *a0), (a0)) \
    FORWARD(const char *, sqlite3_errstr, (int a0), (a0)) \
    FORWARD_VOID(sqlite3_free, (void *a0), (a0)) \
    FORWARD(int, sqlite3_prepare_v3, (sqlite3 *a0, const char *a1, int a2, unsigned int a3, sqlite3_stmt **a4, const char **a5), (a0, a1, a2, a3, a4, a5)) \
    FORWARD(int, sqlite3_step, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_reset, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_finalize, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_clear_bindings, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_bind_parameter_count, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_bind_blob64, (sqlite3_stmt *a0, int a1, const void *a2, sqlite3_uint64 a3, void (*a4)(void *)), (a0, a1, a2, a3, a4)) \
    FORWARD(int, sqlite3_bind_text64, (sqlite3_stmt *a0, int a1, const char *a2, sqlite3_uint64 a3, void (*a4)(void *), unsigned char a5), (a0, a1, a2, a3, a4, a5)) \
    FORWARD(int, sqlite3_bind_double, (sqlite3_stmt *a0, int a1, double a2), (a0, a1, a2)) \
    FORWARD(int, sqlite3_bind_int64, (sqlite3_stmt *a0, int a1, sqlite3_int64 a2), (a0, a1, a2)) \
    FORWARD(int, sqlite3_bind_null, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(int, sqlite3_bind_zeroblob, (sqlite3_stmt *a0, int a1, int a2), (a0, a1, a2)) \
    FORWARD(int, sqlite3_column_count, (sqlite3_stmt *a0), (a0)) \
    FORWARD(int, sqlite3_column_type, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(const void *, sqlite3_column_blob, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(int, sqlite3_column_bytes, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(double, sqlite3_column_double, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    FORWARD(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *a0, int a1), (a0, a1)) \
    RESOLVED(sqlite3_config) \
    RESOLVED(sqlite3_db_config)

#define syncagent_sqlite_FORWARD(returns, name, parameters, arguments) SYNCAGENT_FORWARD(syncagent_sqlite, returns, name, parameters, arguments)
#define syncagent_sqlite_FORWARD_VOID(name, parameters, arguments) SYNCAGENT_FORWARD_VOID(syncagent_sqlite, name, parameters, arguments)
static void prepare_sqlite(struct syncagent_library_table *table);
SYNCAGENT_PREPARED_LIBRARY(syncagent_sqlite, "libsqlite3.so.0", "libsqlite3-0", SQLITE_FUNCTIONS, prepare_sqlite)

/// Turns SQLite's memory statistics off, before anything can call into it (sqlite3_config is
/// allowed only then): nothing reads them, and keeping them took a process-wide mutex and a
/// count on every allocation SQLite makes, some 130 instructions of each malloc and free (a
/// re-check of 10,000 files makes 71,000 of each). Debian's SQLite has no lookaside memory,
/// so every value copied into a statement's registers is one of them. Refused (and harmless)
/// if something in the process had already started SQLite.
static void prepare_sqlite(struct syncagent_library_table *table) {
    int (*config)(int, ...) = (int (*)(int, ...))table->functions[syncagent_index_sqlite3_config];
    (void)config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// The typed forwarder CSQLite's shim.h declares: sqlite3_db_config is C-variadic, and the
// options syncagent sets take an int and a pointer for the setting in effect.
int syncagent_sqlite3_db_config_flag(sqlite3 *database, int option, int value) {
    return SYNCAGENT_FUNCTION(syncagent_sqlite, sqlite3_db_config)(database, option, value, (int *)0);
}
