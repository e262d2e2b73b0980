#ifndef INTERRUPT_CLEANUP_H
#define INTERRUPT_CLEANUP_H

/* Files that SIGINT or SIGTERM remove before they end the process (interrupt_cleanup.c).

   A caller *arms* a slot with the paths of files it is making and the line that says what
   an interruption leaves; the first SIGINT or SIGTERM then unlinks every armed slot's paths,
   writes the line to stderr and ends the process with `_exit(128 + signal)`, all from the
   signal handler, which calls only async-signal-safe functions (unlink, write, _exit,
   sigaction, raise) and atomics. With no slot armed, the signal does what it did before the
   first slot was armed (a signal that was ignored then is never handled). */

/* The most paths one slot holds, and the longest path, terminating NUL included. */
#define INTERRUPT_CLEANUP_PATHS 4
#define INTERRUPT_CLEANUP_PATH_BYTES 4096

/* Arms a free slot: `paths` (`count` of them, at most INTERRUPT_CLEANUP_PATHS) are unlinked on
   SIGINT or SIGTERM, and the line written is `before` + the signal's name + `after` (each at
   most 1,024 bytes). Installs the handlers the first time. Returns the slot (>= 0), or -1
   when every slot is taken, a text is too long, or the handlers cannot be installed. */
int interrupt_cleanup_arm(const char *const *paths, int count, const char *before, const char *after);

/* Before the caller keeps the files (gives a file its final name): a signal arriving from now
   until interrupt_cleanup_end_keep leaves the slot's files alone and waits for that call.
   Returns 1; does not return when a signal is removing the slot's files (the process is
   ending). */
int interrupt_cleanup_begin_keep(int slot);

/* After keeping: `kept` 1 frees the slot, and a signal that waited ends the process as that
   signal would have without the handler (the files stay: they were kept). `kept` 0 arms the
   slot again, and a signal that waited then removes its files and ends the process. */
void interrupt_cleanup_end_keep(int slot, int kept);

/* Frees the slot: its files are the caller's again (removed or kept by it). Does not return
   when a signal is removing the slot's files (the process is ending). */
void interrupt_cleanup_disarm(int slot);

/* Text written before the line, e.g. "\r\033[K" to clear a progress line drawn on a terminal
   (at most 15 bytes; "" for none). */
void interrupt_cleanup_set_line_start(const char *text);

#endif
