#include "interrupt_cleanup.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* The slots' states: the handler claims an armed slot (compare-and-swap), so a slot's files
   are removed by the handler or kept by their owner, never both. */
enum { FREE, TAKEN, ARMED, CLAIMED, KEEPING };

#define SLOTS 4
#define TEXT_BYTES 1025

struct slot {
    _Atomic int state;
    int count;
    char paths[INTERRUPT_CLEANUP_PATHS][INTERRUPT_CLEANUP_PATH_BYTES];
    char before[TEXT_BYTES];
    char after[TEXT_BYTES];
};

static struct slot slots[SLOTS];
/* A signal that arrived while a slot was being kept (0: none). */
static _Atomic int waiting_signal;
static char line_start[16];
static const int handled[2] = { SIGINT, SIGTERM };
static struct sigaction previous[2];
static _Atomic int installed;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

static void write_text(const char *text) {
    size_t count = strlen(text);
    while (count > 0) {
        ssize_t written = write(2, text, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        count -= (size_t)written;
    }
}

static const char *signal_name(int sig) {
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* Unlinks the slot's files, writes its line and ends the process. */
static void remove_and_exit(struct slot *slot, int sig) {
    for (int i = 0; i < slot->count; i++) unlink(slot->paths[i]);
    write_text(line_start);
    write_text(slot->before);
    write_text(signal_name(sig));
    write_text(slot->after);
    _exit(128 + sig);
}

/* Ends the process as `sig` would have without this handler. */
static void act_as_before(int sig) {
    int index = sig == SIGINT ? 0 : 1;
    sigaction(sig, &previous[index], NULL);
    raise(sig); /* blocked while a handler runs: delivered when it returns */
}

static void on_signal(int sig) {
    int saved = errno;
    int keeping = 0, claimed = 0;
    for (int i = 0; i < SLOTS; i++) {
        int expected = ARMED;
        if (atomic_compare_exchange_strong(&slots[i].state, &expected, CLAIMED)) {
            /* Every other armed slot's files go too. */
            for (int j = i + 1; j < SLOTS; j++) {
                int other = ARMED;
                if (atomic_compare_exchange_strong(&slots[j].state, &other, CLAIMED)) {
                    for (int k = 0; k < slots[j].count; k++) unlink(slots[j].paths[k]);
                }
            }
            remove_and_exit(&slots[i], sig);
        }
        if (expected == KEEPING) keeping = 1;
        if (expected == CLAIMED) claimed = 1;
    }
    if (keeping) {
        int none = 0;
        atomic_compare_exchange_strong(&waiting_signal, &none, sig);
    } else if (!claimed) {
        act_as_before(sig);
    }
    /* claimed: another thread's handler is removing files and ends the process. */
    errno = saved;
}

static void wait_for_the_end(void) {
    for (;;) pause();
}

static int install(void) {
    if (atomic_load(&installed)) return 0;
    pthread_mutex_lock(&install_lock);
    int failed = 0;
    if (!atomic_load(&installed)) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaddset(&action.sa_mask, SIGINT);
        sigaddset(&action.sa_mask, SIGTERM);
        for (int i = 0; i < 2 && !failed; i++) {
            if (sigaction(handled[i], NULL, &previous[i]) != 0) {
                failed = 1;
            } else if (previous[i].sa_handler != SIG_IGN && sigaction(handled[i], &action, NULL) != 0) {
                failed = 1;
            }
        }
        if (!failed) atomic_store(&installed, 1);
    }
    pthread_mutex_unlock(&install_lock);
    return failed ? -1 : 0;
}

int interrupt_cleanup_arm(const char *const *paths, int count, const char *before, const char *after) {
    if (count < 0 || count > INTERRUPT_CLEANUP_PATHS) return -1;
    if (strlen(before) >= TEXT_BYTES || strlen(after) >= TEXT_BYTES) return -1;
    for (int i = 0; i < count; i++) {
        if (strlen(paths[i]) >= INTERRUPT_CLEANUP_PATH_BYTES) return -1;
    }
    if (install() != 0) return -1;
    for (int s = 0; s < SLOTS; s++) {
        int expected = FREE;
        if (!atomic_compare_exchange_strong(&slots[s].state, &expected, TAKEN)) continue;
        struct slot *slot = &slots[s];
        for (int i = 0; i < count; i++) strcpy(slot->paths[i], paths[i]);
        slot->count = count;
        strcpy(slot->before, before);
        strcpy(slot->after, after);
        atomic_store(&slot->state, ARMED); /* sequentially consistent: the texts are visible first */
        return s;
    }
    return -1;
}

int interrupt_cleanup_begin_keep(int slot) {
    int expected = ARMED;
    if (!atomic_compare_exchange_strong(&slots[slot].state, &expected, KEEPING)) wait_for_the_end();
    return 1;
}

void interrupt_cleanup_end_keep(int slot, int kept) {
    if (kept) {
        atomic_store(&slots[slot].state, FREE);
        int sig = atomic_exchange(&waiting_signal, 0);
        if (sig != 0) {
            act_as_before(sig);
            wait_for_the_end();
        }
        return;
    }
    atomic_store(&slots[slot].state, ARMED);
    int sig = atomic_exchange(&waiting_signal, 0);
    if (sig != 0) {
        int expected = ARMED;
        if (atomic_compare_exchange_strong(&slots[slot].state, &expected, CLAIMED)) {
            remove_and_exit(&slots[slot], sig);
        }
        wait_for_the_end();
    }
}

void interrupt_cleanup_disarm(int slot) {
    int expected = ARMED;
    if (atomic_compare_exchange_strong(&slots[slot].state, &expected, FREE)) return;
    if (expected == CLAIMED) wait_for_the_end();
    atomic_store(&slots[slot].state, FREE);
}

void interrupt_cleanup_set_line_start(const char *text) {
    size_t length = strlen(text);
    if (length >= sizeof line_start) return;
    /* A handler may read it at any time: it is emptied first, its tail written, then its
       first byte, so that a handler sees the old first byte and "", or the whole new text. */
    line_start[0] = '\0';
    atomic_signal_fence(memory_order_seq_cst);
    if (length > 0) memcpy(line_start + 1, text + 1, length); /* text[1...length], NUL included */
    atomic_signal_fence(memory_order_seq_cst);
    line_start[0] = text[0];
}
