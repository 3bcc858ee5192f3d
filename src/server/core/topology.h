// The node topology the server uses for locality strings: the host's
// (PMIX_TOPOLOGY2 with an hwloc source) or one loaded here. With
// PMIX_SERVER_SHARE_TOPOLOGY it is also handed to clients as hwloc v2 XML in
// the node data of this node, so they need not rediscover it.
#ifndef PMIXPP_SERVER_CORE_TOPOLOGY_H
#define PMIXPP_SERVER_CORE_TOPOLOGY_H

#include "server/core/server.h"

#include <cstdint>
#include <string>

namespace pmixpp::server {

// A failure to load one is not fatal: locality strings are then not derived.
void setup_topology(Server &server);

// Stores the topology as PMIX_HWLOC_XML_V2 in nspace's node data of node
// `local_nodeid` (this node), when the host asked to share it. A failure is
// logged and not fatal: clients then discover the topology themselves.
void share_topology(const Server &server, const std::string &nspace, uint32_t local_nodeid);

}  // namespace pmixpp::server

#endif
