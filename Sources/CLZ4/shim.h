#ifndef CLZ4_SHIM_H
#define CLZ4_SHIM_H
/* LZ4_attach_dictionary and LZ4_resetStream_fast are in the static library only (Debian's
   liblz4.so does not export them): the module links liblz4.a, see module.modulemap. */
#define LZ4_STATIC_LINKING_ONLY
#include <lz4.h>
#endif
