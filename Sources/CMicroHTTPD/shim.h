#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* libmicrohttpd is not linked: JournalHTTP/LibMicroHTTPD.swift opens it with dlopen on first use
   (docs/decisions/lazy-system-libraries.md). Each function serve calls has its pointer type here,
   taken from its declaration, so a signature is never copied by hand. */
typedef __typeof__(&MHD_start_daemon) cmhd_MHD_start_daemon_fn;
typedef __typeof__(&MHD_quiesce_daemon) cmhd_MHD_quiesce_daemon_fn;
typedef __typeof__(&MHD_stop_daemon) cmhd_MHD_stop_daemon_fn;
typedef __typeof__(&MHD_suspend_connection) cmhd_MHD_suspend_connection_fn;
typedef __typeof__(&MHD_resume_connection) cmhd_MHD_resume_connection_fn;
typedef __typeof__(&MHD_get_connection_values) cmhd_MHD_get_connection_values_fn;
typedef __typeof__(&MHD_create_response_from_buffer) cmhd_MHD_create_response_from_buffer_fn;
typedef __typeof__(&MHD_add_response_header) cmhd_MHD_add_response_header_fn;
typedef __typeof__(&MHD_queue_response) cmhd_MHD_queue_response_fn;
typedef __typeof__(&MHD_destroy_response) cmhd_MHD_destroy_response_fn;

/* MHD_start_daemon is variadic, which Swift cannot call: `start` is the resolved function, the
   completion callback (whose function pointer would otherwise have to be cast to intptr_t) is
   passed here, every other option in one MHD_OPTION_ARRAY built on the Swift side. The listening
   socket comes in that array, so the port argument is unused. */
static inline struct MHD_Daemon *cmhd_start_daemon(cmhd_MHD_start_daemon_fn start, unsigned int flags,
                                                   MHD_AccessHandlerCallback handler, void *context,
                                                   MHD_RequestCompletedCallback completed,
                                                   const struct MHD_OptionItem *options) {
    return start(flags, 0, NULL, NULL, handler, context,
                 MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                 MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}
#endif
