#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT / SQLITE_STATIC cast an int to a function pointer; Swift cannot import them. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
/* sqlite3_config is variadic, which Swift cannot call. Memory statistics cost a global mutex
   on every sqlite3_malloc and sqlite3_free; nothing here reads them. Only effective before
   SQLite initializes (the first open); later it returns SQLITE_MISUSE and changes nothing. */
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
