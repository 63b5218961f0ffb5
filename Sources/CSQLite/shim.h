#ifndef CADDIE_CSQLITE_SHIM_H
#define CADDIE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: the one setting Caddie makes, as a plain function.
   Whether SQLite counts the memory it allocates (SQLITE_CONFIG_MEMSTATUS); only before SQLite is initialized. */
static inline int caddie_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
#endif
