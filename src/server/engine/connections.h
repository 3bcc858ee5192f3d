// Accepted connections: from the raw fd to a Peer with a framed Connection,
// the routing of its frames (handshake first, then requests), and what
// happens when it goes away. Writing to a peer is in state/peer_io.h.
// Progress thread only.
#ifndef PMIXPP_SERVER_ENGINE_CONNECTIONS_H
#define PMIXPP_SERVER_ENGINE_CONNECTIONS_H

#include "server/state/peer_io.h"
#include "server/state/server.h"

#include <pmix_common.h>
#include <pmixpp/peer.h>

#include <string>

namespace pmixpp::server {

// Closes fd at once when the peer's uid holds Config::max_connections_per_uid
// connections already (one rate-limited warning line).
void adopt_connection(Server &server, int fd, const pmixpp_peer_identity_t &kernel, const std::string &ptl,
                      const pmixpp_ptl_module_t *module = nullptr);

}  // namespace pmixpp::server

#endif
