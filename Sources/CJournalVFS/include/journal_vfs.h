#ifndef JOURNAL_VFS_H
#define JOURNAL_VFS_H
#include <sqlite3.h>

/* The name of the SQLite VFS the journal opens its files with (journal_vfs.c). */
#define JOURNAL_VFS_NAME "journal-coalescing"

/* Registers the VFS once (not as the default) and returns its name, to pass to
   sqlite3_open_v2; NULL when it could not be registered (then open with the default VFS).
   Thread-safe. */
const char *journal_vfs_register(void);

/* For the connection `db` opened with the VFS: how many writes SQLite made to its WAL file
   (`received`) and how many reached the file (`issued`), since the WAL file was opened.
   Returns 0, or -1 when the connection has no WAL file open through the VFS. */
int journal_vfs_wal_writes(sqlite3 *db, sqlite3_int64 *received, sqlite3_int64 *issued);

/* glibc's syncfs: flushes every file of the file system that holds `fd` (a mirror's thousands
   of tiles in one call, before the checkpoint that points to them). unistd.h declares it only
   under _GNU_SOURCE, which must not be defined in a header Swift imports; this is glibc's own
   declaration. */
extern int syncfs(int fd);

#endif
