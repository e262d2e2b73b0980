/* What a commit's WAL writes cost on this machine, without SQLite: the figures behind the journal's
 * VFS that writes a commit's frames in one call (docs/decisions/wal-write-coalescing.md).
 *
 *   cc -O2 -o /tmp/wal-floor bench/floor/wal_write_floor.c
 *   /tmp/wal-floor [DIR] [FRAMES] [ROUNDS]      # defaults: . 14 1000
 *
 * Each round appends FRAMES frames of a 4 KiB page to a file in DIR and syncs it (fdatasync), as a
 * WAL commit does: first the way SQLite writes them (a 24-byte header, then the page: two calls per
 * frame), then the same bytes in one call. Prints the mean time of the writes and of the sync. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { HEADER = 24, PAGE = 4096 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void run(int fd, int frames, int rounds, int gathered) {
    static char bytes[HEADER + PAGE];
    char *all = calloc((size_t)frames, HEADER + PAGE);
    memset(bytes, 1, sizeof bytes);
    off_t offset = 0;
    double writing = 0, syncing = 0;
    for (int round = 0; round < rounds; round++) {
        double start = now();
        if (gathered) {
            if (pwrite(fd, all, (size_t)frames * (HEADER + PAGE), offset) < 0) { perror("pwrite"); exit(1); }
            offset += (off_t)frames * (HEADER + PAGE);
        } else {
            for (int frame = 0; frame < frames; frame++) {
                if (pwrite(fd, bytes, HEADER, offset) < 0 || pwrite(fd, bytes, PAGE, offset + HEADER) < 0) {
                    perror("pwrite");
                    exit(1);
                }
                offset += HEADER + PAGE;
            }
        }
        double written = now();
        if (fdatasync(fd) != 0) { perror("fdatasync"); exit(1); }
        writing += written - start;
        syncing += now() - written;
    }
    printf("%-32s writes %6.1f us, fdatasync %6.1f us per commit\n",
           gathered ? "one call per commit:" : "two calls per frame (SQLite):", writing / rounds * 1e6,
           syncing / rounds * 1e6);
    free(all);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    int frames = argc > 2 ? atoi(argv[2]) : 14;
    int rounds = argc > 3 ? atoi(argv[3]) : 1000;
    char path[4096];
    snprintf(path, sizeof path, "%s/wal-floor.tmp", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror(path); return 1; }
    printf("%d frames of %d bytes per commit, %d commits\n", frames, PAGE, rounds);
    run(fd, frames, rounds, 0);
    run(fd, frames, rounds, 1);
    close(fd);
    unlink(path);
    return 0;
}
