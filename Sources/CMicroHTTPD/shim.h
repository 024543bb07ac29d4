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
