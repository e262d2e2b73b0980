#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H
/* glibc's posix_spawn extension that closes every descriptor from FROM up in the child (glibc
   2.34 and later). spawn.h declares it only under _GNU_SOURCE, which must not be defined here:
   it would change system types this module shares with Swift's Glibc module. The declaration
   below is glibc's own. */
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
