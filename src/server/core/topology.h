// The node topology the server uses for locality strings: the host's
// (PMIX_TOPOLOGY2 with an hwloc source) or one loaded here.
#ifndef PMIXPP_SERVER_CORE_TOPOLOGY_H
#define PMIXPP_SERVER_CORE_TOPOLOGY_H

#include "server/core/server.h"

namespace pmixpp::server {

// A failure to load one is not fatal: locality strings are then not derived.
void setup_topology(Server &server);

}  // namespace pmixpp::server

#endif
