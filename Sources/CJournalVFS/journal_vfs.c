/*
 * A shim over SQLite's default VFS that gathers the writes of a WAL file into one buffer and
 * writes it with one pwrite.
 *
 * Why: SQLite writes every WAL frame as two calls, its 24-byte header then the page, so a commit
 * of N dirty pages costs 2N system calls, and on this kind of virtual disk the fsync after many
 * small writes takes about twice as long as after one (BENCHMARKS.md, "WAL writes";
 * docs/decisions/wal-write-coalescing.md). Every other file, and every other call, goes to the
 * default VFS unchanged.
 *
 * What makes it safe: a buffered write reaches the file before anything could depend on it:
 *   - xSync (durability: a synchronous=FULL commit syncs the WAL before it returns);
 *   - the page of a commit frame (a frame header with a non-zero database size), so a committed
 *     transaction is in the file before SQLite publishes it in the WAL index, whatever
 *     `synchronous` is;
 *   - xShmBarrier of the database file, which SQLite calls between the two copies of the WAL
 *     index header it publishes a commit with (a second guard for the same thing);
 *   - a read that overlaps the buffer, xFileSize, xTruncate, xFileControl and xClose;
 *   - a write that does not continue the buffer, or does not fit in it.
 * A process that dies with writes in the buffer loses only writes of a transaction that had not
 * committed: SQLite's recovery ignores frames after the last valid commit frame.
 *
 * One connection's files are used by one thread at a time (SQLite's rule), and a database file
 * and its WAL belong to the same connection, so the buffer needs no lock.
 */
#include "journal_vfs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default VFS writes at most 0x1ffff bytes per call (unix seekAndWriteFd masks the size
   with it: SQLite itself never writes more than a 64 KiB page at once), so a buffer flush must
   not be larger: 31 frames of 4 KiB pages. */
enum { BUFFER_CAPACITY = 0x1ffff, FRAME_HEADER_SIZE = 24, WAL_HEADER_SIZE = 32 };

typedef struct ShimFile ShimFile;
struct ShimFile {
    sqlite3_file base;   /* pMethods is shim_methods */
    sqlite3_file *real;  /* the default VFS's file, allocated right after this struct */
    int isWal;
    ShimFile *wal;       /* database file: its WAL while open through the shim */
    ShimFile *database;  /* WAL: its database file */
    unsigned char *buffer;
    sqlite3_int64 bufferStart;
    int bufferLength;
    int commitFramePending; /* a commit frame's header is buffered; flush after its page */
    sqlite3_int64 writesReceived;
    sqlite3_int64 writesIssued;
};

static sqlite3_vfs *root_vfs;
static sqlite3_vfs shim_vfs;
static const sqlite3_io_methods shim_methods;

/* Writes the buffer out. On failure the buffer is dropped all the same: SQLite takes the error
   of the write or sync it made as that write failing, rolls the transaction back and never
   retries it, so the frames are abandoned either way (and a partly written frame fails its
   checksum at recovery). */
static int flush(ShimFile *p) {
    if (p->bufferLength == 0) return SQLITE_OK;
    int rc = p->real->pMethods->xWrite(p->real, p->buffer, p->bufferLength, p->bufferStart);
    p->bufferLength = 0;
    p->commitFramePending = 0;
    if (rc == SQLITE_OK) p->writesIssued++;
    return rc;
}

static int shim_close(sqlite3_file *file) {
    ShimFile *p = (ShimFile *)file;
    int rc = flush(p);
    int closed = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
    if (p->database && p->database->wal == p) p->database->wal = NULL;
    if (p->wal && p->wal->database == p) p->wal->database = NULL;
    free(p->buffer);
    p->buffer = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

static int shim_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    ShimFile *p = (ShimFile *)file;
    if (p->bufferLength > 0 && offset < p->bufferStart + p->bufferLength && offset + amount > p->bufferStart) {
        int rc = flush(p);
        if (rc != SQLITE_OK) return rc;
    }
    return p->real->pMethods->xRead(p->real, out, amount, offset);
}

static int shim_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    ShimFile *p = (ShimFile *)file;
    if (!p->isWal) return p->real->pMethods->xWrite(p->real, data, amount, offset);
    p->writesReceived++;
    int rc;
    if (p->bufferLength > 0
        && (offset != p->bufferStart + p->bufferLength || p->bufferLength + amount > BUFFER_CAPACITY)) {
        if ((rc = flush(p)) != SQLITE_OK) return rc;
    }
    if (amount > BUFFER_CAPACITY) {
        rc = p->real->pMethods->xWrite(p->real, data, amount, offset);
        if (rc == SQLITE_OK) p->writesIssued++;
        return rc;
    }
    if (p->buffer == NULL && (p->buffer = malloc(BUFFER_CAPACITY)) == NULL) return SQLITE_NOMEM;
    if (p->bufferLength == 0) p->bufferStart = offset;
    memcpy(p->buffer + p->bufferLength, data, (size_t)amount);
    p->bufferLength += amount;

    const unsigned char *bytes = data;
    if (amount == FRAME_HEADER_SIZE && offset >= WAL_HEADER_SIZE) {
        /* A frame header: bytes 4-7 hold the database size in pages for a commit frame, else 0. */
        p->commitFramePending = (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
    } else if (p->commitFramePending) {
        return flush(p); /* clears commitFramePending */
    }
    return SQLITE_OK;
}

static int shim_truncate(sqlite3_file *file, sqlite3_int64 size) {
    ShimFile *p = (ShimFile *)file;
    int rc = flush(p);
    return rc != SQLITE_OK ? rc : p->real->pMethods->xTruncate(p->real, size);
}

static int shim_sync(sqlite3_file *file, int flags) {
    ShimFile *p = (ShimFile *)file;
    int rc = flush(p);
    return rc != SQLITE_OK ? rc : p->real->pMethods->xSync(p->real, flags);
}

static int shim_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    ShimFile *p = (ShimFile *)file;
    int rc = flush(p);
    return rc != SQLITE_OK ? rc : p->real->pMethods->xFileSize(p->real, size);
}

static int shim_lock(sqlite3_file *file, int level) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xLock(p->real, level);
}

static int shim_unlock(sqlite3_file *file, int level) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xUnlock(p->real, level);
}

static int shim_check_reserved_lock(sqlite3_file *file, int *out) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xCheckReservedLock(p->real, out);
}

static int shim_file_control(sqlite3_file *file, int op, void *arg) {
    ShimFile *p = (ShimFile *)file;
    int rc = flush(p);
    if (rc != SQLITE_OK) return rc;
    return p->real->pMethods->xFileControl(p->real, op, arg);
}

static int shim_sector_size(sqlite3_file *file) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xSectorSize(p->real);
}

static int shim_device_characteristics(sqlite3_file *file) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xDeviceCharacteristics(p->real);
}

static int shim_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xShmMap(p->real, region, size, extend, out);
}

static int shim_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xShmLock(p->real, offset, n, flags);
}

static void shim_shm_barrier(sqlite3_file *file) {
    ShimFile *p = (ShimFile *)file;
    if (p->wal && flush(p->wal) != SQLITE_OK) {
        /* Unreachable in practice (a commit frame was flushed already, above), and there is no
           way to report it from here: SQLite is about to publish frames the file may lack, which
           readers would take as corrupt pages. Stopping keeps the file consistent: recovery then
           ignores the transaction, which had not been reported committed. */
        fputs("journal: could not write the SQLite WAL before publishing a commit; stopping\n", stderr);
        abort();
    }
    p->real->pMethods->xShmBarrier(p->real);
}

static int shim_shm_unmap(sqlite3_file *file, int deleteFlag) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xShmUnmap(p->real, deleteFlag);
}

static int shim_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xFetch(p->real, offset, amount, out);
}

static int shim_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    ShimFile *p = (ShimFile *)file;
    return p->real->pMethods->xUnfetch(p->real, offset, page);
}

static const sqlite3_io_methods shim_methods = {
    3,
    shim_close,
    shim_read,
    shim_write,
    shim_truncate,
    shim_sync,
    shim_file_size,
    shim_lock,
    shim_unlock,
    shim_check_reserved_lock,
    shim_file_control,
    shim_sector_size,
    shim_device_characteristics,
    shim_shm_map,
    shim_shm_lock,
    shim_shm_barrier,
    shim_shm_unmap,
    shim_fetch,
    shim_unfetch,
};

static int shim_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    ShimFile *p = (ShimFile *)file;
    memset(p, 0, sizeof(*p));
    p->real = (sqlite3_file *)&p[1];
    int rc = root_vfs->xOpen(root_vfs, name, p->real, flags, outFlags);
    /* SQLite calls xClose after a failed xOpen only when pMethods is set. */
    p->base.pMethods = p->real->pMethods ? &shim_methods : NULL;
    if (rc != SQLITE_OK || p->real->pMethods == NULL) return rc;
    /* The default VFS's methods must reach version 3 (shared memory, memory mapping). */
    if (p->real->pMethods->iVersion < 3) {
        p->real->pMethods->xClose(p->real);
        p->base.pMethods = NULL;
        return SQLITE_CANTOPEN;
    }
    if ((flags & SQLITE_OPEN_WAL) && name != NULL) {
        sqlite3_file *database = sqlite3_database_file_object(name);
        p->isWal = 1;
        if (database != NULL && database->pMethods == &shim_methods) {
            p->database = (ShimFile *)database;
            p->database->wal = p;
        }
    }
    return SQLITE_OK;
}

static int shim_delete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return root_vfs->xDelete(root_vfs, name, syncDir);
}

static int shim_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return root_vfs->xAccess(root_vfs, name, flags, out);
}

static int shim_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return root_vfs->xFullPathname(root_vfs, name, size, out);
}

static void *shim_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return root_vfs->xDlOpen(root_vfs, name);
}

static void shim_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    root_vfs->xDlError(root_vfs, size, out);
}

static void (*shim_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return root_vfs->xDlSym(root_vfs, handle, symbol);
}

static void shim_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    root_vfs->xDlClose(root_vfs, handle);
}

static int shim_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return root_vfs->xRandomness(root_vfs, size, out);
}

static int shim_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return root_vfs->xSleep(root_vfs, microseconds);
}

static int shim_current_time(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return root_vfs->xCurrentTime(root_vfs, out);
}

static int shim_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return root_vfs->xGetLastError ? root_vfs->xGetLastError(root_vfs, size, out) : 0;
}

static int shim_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return root_vfs->xCurrentTimeInt64(root_vfs, out);
}

static int registration = SQLITE_ERROR;
static pthread_once_t registration_once = PTHREAD_ONCE_INIT;

static void register_once(void) {
    root_vfs = sqlite3_vfs_find(NULL);
    if (root_vfs == NULL || root_vfs->iVersion < 2 || root_vfs->xCurrentTimeInt64 == NULL) {
        registration = SQLITE_ERROR;
        return;
    }
    shim_vfs.iVersion = 2;
    shim_vfs.szOsFile = (int)sizeof(ShimFile) + root_vfs->szOsFile;
    shim_vfs.mxPathname = root_vfs->mxPathname;
    shim_vfs.zName = JOURNAL_VFS_NAME;
    shim_vfs.xOpen = shim_open;
    shim_vfs.xDelete = shim_delete;
    shim_vfs.xAccess = shim_access;
    shim_vfs.xFullPathname = shim_full_pathname;
    shim_vfs.xDlOpen = shim_dl_open;
    shim_vfs.xDlError = shim_dl_error;
    shim_vfs.xDlSym = shim_dl_sym;
    shim_vfs.xDlClose = shim_dl_close;
    shim_vfs.xRandomness = shim_randomness;
    shim_vfs.xSleep = shim_sleep;
    shim_vfs.xCurrentTime = shim_current_time;
    shim_vfs.xGetLastError = shim_get_last_error;
    shim_vfs.xCurrentTimeInt64 = shim_current_time_int64;
    registration = sqlite3_vfs_register(&shim_vfs, 0);
}

const char *journal_vfs_register(void) {
    pthread_once(&registration_once, register_once);
    return registration == SQLITE_OK ? JOURNAL_VFS_NAME : NULL;
}

int journal_vfs_wal_writes(sqlite3 *db, sqlite3_int64 *received, sqlite3_int64 *issued) {
    sqlite3_file *file = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) != SQLITE_OK || file == NULL
        || file->pMethods != &shim_methods) {
        return -1;
    }
    ShimFile *p = (ShimFile *)file;
    if (!p->isWal) return -1;
    *received = p->writesReceived;
    *issued = p->writesIssued;
    return 0;
}
