/* What SQLite itself needs to write a journal's rows on this machine, without Swift, hashing,
 * compression or validation: the floor under `journal simulate`'s appending thread (docs/simulator.md).
 *
 *   cc -O2 -o /tmp/sqlite-floor bench/floor/sqlite_insert_floor.c -lsqlite3
 *   /tmp/sqlite-floor SOURCE.db OUT.db rows          # event rows + stream rows, name index as it goes
 *   /tmp/sqlite-floor SOURCE.db OUT.db rows-deferred # the same, name index built at the end
 *   /tmp/sqlite-floor SOURCE.db OUT.db ids           # the id index from ids sorted in memory, row by row
 *
 * SOURCE.db is a journal (e.g. from `journal simulate`); its rows are read into memory first, then
 * written to OUT.db with the load's pragmas (rollback journal in memory, no fsync, 64 MiB cache), one
 * prepared statement per table, one transaction per 1,000 events, exactly the journal's tables. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    long long position, stream, version, type, occurred, recorded, codec, dataLength, metaLength;
    int metaIsNull, payloadLength;
    unsigned char id[16], hash[32], *payload;
    char *newStreamName; /* set on the stream's first event */
} Row;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) { fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db)); exit(1); }
}
static int byID(const void *a, const void *b) { return memcmp(((const Row *)a)->id, ((const Row *)b)->id, 16); }

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s SOURCE.db OUT.db rows|rows-deferred|ids\n", argv[0]); return 2; }
    const char *mode = argv[3];
    sqlite3 *source;
    check(sqlite3_open_v2(argv[1], &source, SQLITE_OPEN_READONLY, 0), source, "open source");
    long long count = 0, streams = 0;
    sqlite3_stmt *q;
    check(sqlite3_prepare_v2(source, "SELECT count(*), (SELECT max(id) FROM journal_streams) FROM journal_events", -1, &q, 0), source, "count");
    check(sqlite3_step(q), source, "count");
    count = sqlite3_column_int64(q, 0); streams = sqlite3_column_int64(q, 1);
    sqlite3_finalize(q);
    char **names = calloc(streams + 1, sizeof(char *));
    check(sqlite3_prepare_v2(source, "SELECT id, name FROM journal_streams", -1, &q, 0), source, "streams");
    while (sqlite3_step(q) == SQLITE_ROW) names[sqlite3_column_int64(q, 0)] = strdup((const char *)sqlite3_column_text(q, 1));
    sqlite3_finalize(q);
    Row *rows = calloc(count, sizeof(Row));
    check(sqlite3_prepare_v2(source, "SELECT position, stream_id, version, event_id, type_id, occurred_at, recorded_at, codec, "
                             "data_len, meta_len, payload, hash FROM journal_events ORDER BY position", -1, &q, 0), source, "events");
    long long n = 0;
    while (n < count && sqlite3_step(q) == SQLITE_ROW) {
        Row *r = &rows[n++];
        r->position = sqlite3_column_int64(q, 0); r->stream = sqlite3_column_int64(q, 1); r->version = sqlite3_column_int64(q, 2);
        if (sqlite3_column_bytes(q, 3) != 16) { fprintf(stderr, "position %lld: a text id; this tool takes 16-byte ids only\n", r->position); return 1; }
        memcpy(r->id, sqlite3_column_blob(q, 3), 16);
        r->type = sqlite3_column_int64(q, 4); r->occurred = sqlite3_column_int64(q, 5); r->recorded = sqlite3_column_int64(q, 6);
        r->codec = sqlite3_column_int64(q, 7); r->dataLength = sqlite3_column_int64(q, 8);
        r->metaIsNull = sqlite3_column_type(q, 9) == SQLITE_NULL; r->metaLength = sqlite3_column_int64(q, 9);
        r->payloadLength = sqlite3_column_bytes(q, 10);
        r->payload = malloc(r->payloadLength + 1);
        memcpy(r->payload, sqlite3_column_blob(q, 10), r->payloadLength);
        memcpy(r->hash, sqlite3_column_blob(q, 11), 32);
        r->newStreamName = r->version == 0 ? names[r->stream] : NULL;
    }
    sqlite3_finalize(q);
    sqlite3_close(source);

    remove(argv[2]);
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3 *db;
    check(sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, 0), db, "open out");
    check(sqlite3_exec(db, "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;"
                           "CREATE TABLE journal_streams(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
                           "CREATE TABLE journal_events(position INTEGER PRIMARY KEY, stream_id INTEGER NOT NULL, version INTEGER NOT NULL,"
                           " event_id NOT NULL, type_id INTEGER NOT NULL, occurred_at INTEGER NOT NULL, recorded_at INTEGER NOT NULL,"
                           " codec INTEGER NOT NULL, data_len INTEGER NOT NULL, meta_len INTEGER, payload BLOB NOT NULL, hash BLOB NOT NULL);"
                           "CREATE UNIQUE INDEX journal_events_stream_version ON journal_events(stream_id, version);"
                           "CREATE TABLE journal_event_ids(id NOT NULL PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID;", 0, 0, 0), db, "schema");
    const char *nameIndex = "CREATE UNIQUE INDEX journal_streams_name ON journal_streams(name)";
    double start = now(), end;
    if (strcmp(mode, "ids") == 0) {
        qsort(rows, count, sizeof(Row), byID);
        double sorted = now();
        sqlite3_stmt *insert;
        check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
        check(sqlite3_prepare_v2(db, "INSERT INTO journal_event_ids(id, position) VALUES (?, ?)", -1, &insert, 0), db, "prepare");
        for (long long i = 0; i < count; i++) {
            sqlite3_bind_blob(insert, 1, rows[i].id, 16, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 2, rows[i].position);
            check(sqlite3_step(insert), db, "insert id");
            sqlite3_reset(insert);
        }
        check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
        end = now();
        printf("ids: %lld sorted in memory in %.3f s, inserted in order in %.3f s (%.3f us a row)\n",
               count, sorted - start, end - sorted, (end - sorted) / count * 1e6);
        return 0;
    }
    int deferred = strcmp(mode, "rows-deferred") == 0;
    if (!deferred && strcmp(mode, "rows") != 0) { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
    if (!deferred) check(sqlite3_exec(db, nameIndex, 0, 0, 0), db, "name index");
    sqlite3_stmt *insert, *stream;
    check(sqlite3_prepare_v2(db, "INSERT INTO journal_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, 0), db, "prepare");
    check(sqlite3_prepare_v2(db, "INSERT INTO journal_streams(id, name) VALUES (?, ?)", -1, &stream, 0), db, "prepare");
    for (long long batch = 0; batch < count; batch += 1000) {
        check(sqlite3_exec(db, "BEGIN; SAVEPOINT batch", 0, 0, 0), db, "begin");
        for (long long i = batch; i < count && i < batch + 1000; i++) {
            Row *r = &rows[i];
            if (r->newStreamName) {
                sqlite3_bind_int64(stream, 1, r->stream);
                sqlite3_bind_text(stream, 2, r->newStreamName, -1, SQLITE_STATIC);
                check(sqlite3_step(stream), db, "insert stream");
                sqlite3_reset(stream);
            }
            sqlite3_bind_int64(insert, 1, r->position); sqlite3_bind_int64(insert, 2, r->stream);
            sqlite3_bind_int64(insert, 3, r->version); sqlite3_bind_blob(insert, 4, r->id, 16, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 5, r->type); sqlite3_bind_int64(insert, 6, r->occurred);
            sqlite3_bind_int64(insert, 7, r->recorded); sqlite3_bind_int64(insert, 8, r->codec);
            sqlite3_bind_int64(insert, 9, r->dataLength);
            if (r->metaIsNull) sqlite3_bind_null(insert, 10); else sqlite3_bind_int64(insert, 10, r->metaLength);
            sqlite3_bind_blob(insert, 11, r->payload, r->payloadLength, SQLITE_STATIC);
            sqlite3_bind_blob(insert, 12, r->hash, 32, SQLITE_STATIC);
            check(sqlite3_step(insert), db, "insert event");
            sqlite3_reset(insert);
        }
        check(sqlite3_exec(db, "RELEASE batch; COMMIT", 0, 0, 0), db, "commit");
    }
    double written = now();
    if (deferred) check(sqlite3_exec(db, nameIndex, 0, 0, 0), db, "name index");
    end = now();
    printf("%s: %lld events in %.3f s (%.3f us an event)%s", mode, count, written - start, (written - start) / count * 1e6,
           deferred ? "" : "\n");
    if (deferred) printf(", name index at the end %.3f s\n", end - written);
    return 0;
}
