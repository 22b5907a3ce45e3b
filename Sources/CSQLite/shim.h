#pragma once
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import.
/// Passed as a bind destructor it tells SQLite to copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is C-variadic, which Swift cannot call: the forwarder for its options
/// that take an int (on or off) and a pointer left null, defined in CLibraries/sqlite.c.
int syncagent_sqlite3_db_config_flag(sqlite3 *database, int option, int value);
