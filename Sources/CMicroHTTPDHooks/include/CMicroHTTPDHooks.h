#ifndef LATCHKEY_CMICROHTTPD_HOOKS_H
#define LATCHKEY_CMICROHTTPD_HOOKS_H

#include <microhttpd.h>

/* libmicrohttpd 0.9.75 answers some malformed requests itself, before the application sees them (an HTML page with
   400, 413, 414, 431, 500 or 505), and has no option to change those answers. It queues each one through its own
   exported MHD_queue_response, which it calls through its PLT; this library defines MHD_queue_response too, so on
   Linux (ELF symbol interposition: the executable's definition comes first) those calls reach the function below.
   A call whose caller is libmicrohttpd's own code goes to the installed hook instead; every other call (the
   server's own answers) goes straight to libmicrohttpd's MHD_queue_response. docs/ARCHITECTURE.md, "The HTTP
   edge", says why and what the hook does. */

/* Answers a request libmicrohttpd refused with `status`: queues a response of its own (through MHD_queue_response)
   and returns its result, or returns MHD_NO after answering in some other way (libmicrohttpd then closes the
   connection without sending anything). libmicrohttpd's own response is destroyed by libmicrohttpd. */
typedef enum MHD_Result (*latchkey_mhd_library_answer)(struct MHD_Connection *connection, unsigned int status);

/* Installs `hook` for every daemon of the process (calling it again replaces the hook). */
void latchkey_mhd_install_library_answer(latchkey_mhd_library_answer hook);

/* 1 when libmicrohttpd's own calls of MHD_queue_response reach this library (the process exports this library's
   MHD_queue_response ahead of libmicrohttpd's), 0 when they do not (another platform, or a link that did not
   export it): then libmicrohttpd's own HTML answers go out unchanged. */
int latchkey_mhd_library_answers_active(void);

#endif
