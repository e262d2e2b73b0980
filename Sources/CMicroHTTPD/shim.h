#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
/* MHD_start_daemon is variadic, which Swift cannot call: the completion callback (whose function
   pointer would otherwise have to be cast to intptr_t) is passed here, every other option in one
   MHD_OPTION_ARRAY built on the Swift side. The listening socket comes in that array, so the
   port argument is unused. */
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, MHD_AccessHandlerCallback handler,
                                                   void *context, MHD_RequestCompletedCallback completed,
                                                   const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}
#endif
