#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_get_connection_info is C-variadic, which Swift cannot call: a fixed-argument wrapper. */
static inline const union MHD_ConnectionInfo *
latchkey_connection_client_address(struct MHD_Connection *connection) {
    return MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
}

/* The pointer set for the connection by the MHD_OPTION_NOTIFY_CONNECTION callback (NULL when none). */
static inline void *
latchkey_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The size of the request's header block (request line, header lines and the empty line); 0 before it is complete
   (and for a new request on a kept-alive connection until its headers are). */
static inline size_t
latchkey_connection_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/* The connection's socket. */
static inline int
latchkey_connection_descriptor(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* accept4(2) for the server's accept thread (Server/Acceptor.swift): a GNU extension, which Swift's Glibc module does
   not declare. The caller passes the flags (ListenSocket.acceptFlags). */
#if defined(__linux__)
#if !defined(__USE_GNU)
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif
static inline int
latchkey_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}
#endif

/* MHD_set_connection_option is C-variadic too: the connection's inactivity timeout in seconds (0: none). Setting a
   value after 0 restarts the timer. */
static inline void
latchkey_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    (void) MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}
