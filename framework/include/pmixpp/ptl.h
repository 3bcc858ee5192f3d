/*
 * ptl framework interface: transports. A ptl component knows how to listen
 * for, accept and open stream connections of one kind (Unix sockets, TCP) and
 * how to learn from the kernel who is at the other end. Everything after the
 * connection exists (framing, handshake, messages) is the core's, so a new
 * transport is only these few operations.
 *
 * A server listens on every selected transport; a client connects with the
 * highest-priority one that handles one of the URIs its server offers.
 */
#ifndef PMIXPP_PTL_H
#define PMIXPP_PTL_H

#include <pmixpp/component.h>
#include <pmixpp/peer.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PTL_API_MAJOR 1
#define PMIXPP_PTL_API_MINOR 1

#define PMIXPP_PTL_URI_MAX 512

/* One listening socket opened by a component. */
typedef struct pmixpp_ptl_listener {
    size_t struct_size;
    int fd;                       /* listening, non-blocking, close-on-exec */
    char uri[PMIXPP_PTL_URI_MAX]; /* how a client reaches it, e.g. "usock:/tmp/x/pmix.sock"
                                      or "tcp4://127.0.0.1:40123" */
    void *state;                  /* the component's own; handed back to close_listener */
} pmixpp_ptl_listener_t;

typedef struct pmixpp_ptl_module {
    size_t struct_size; /* sizeof(pmixpp_ptl_module_t) as compiled */
    const char *name;

    /* Server: open this transport's listeners as the PMIx_server_init info
     * asks (PMIX_SERVER_TMPDIR, PMIX_SOCKET_MODE, PMIX_USOCK_DISABLE,
     * PMIX_TCP_* ...). Fills up to `max` entries of `listeners`, sets *n_p.
     * PMIX_ERR_NOT_AVAILABLE when the info disables this transport. */
    pmix_status_t (*listen)(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max,
                            size_t *n_p);

    /* Server: close the socket and remove anything listen created (socket file). */
    void (*close_listener)(pmixpp_ptl_listener_t *listener);

    /* Server: accept one pending connection: a connected, non-blocking,
     * close-on-exec fd and what the kernel says about the peer.
     * PMIX_ERR_WOULD_BLOCK when nothing is pending. */
    pmix_status_t (*accept)(const pmixpp_ptl_listener_t *listener, int *fd_p, pmixpp_peer_identity_t *peer_p);

    /* Client: 1 if this transport can reach `uri`. */
    int (*handles_uri)(const char *uri);

    /* Client: connect to `uri` within timeout_ms (0: a default); on success a
     * connected, blocking, close-on-exec fd. */
    pmix_status_t (*connect)(const char *uri, int timeout_ms, int *fd_p);

    /* Since 1.1, optional. Server: the slow part of learning who is at the
     * other end of an accepted socket, for a peer that accept left with
     * known == 0 (for example only uid_known). The core calls it on a worker
     * thread, never the progress thread, once the peer has sent its hello,
     * with a duplicate of the connection's fd; it fills *peer_p as accept
     * would have. Must be thread-safe. */
    void (*complete_identity)(int fd, pmixpp_peer_identity_t *peer_p);
} pmixpp_ptl_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PTL_H */
