#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT / SQLITE_STATIC cast an int to a function pointer; Swift cannot import them. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
#endif
