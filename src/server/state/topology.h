// The node topology the server uses for locality strings: the host's
// (PMIX_TOPOLOGY2 with an hwloc source) or one loaded here. With
// PMIX_SERVER_SHARE_TOPOLOGY it is also handed to clients as hwloc v2 XML in
// the node data of this node, so they need not rediscover it.
#ifndef PMIXPP_SERVER_STATE_TOPOLOGY_H
#define PMIXPP_SERVER_STATE_TOPOLOGY_H

#include "server/state/server.h"

#include <cstdint>
#include <string>

namespace pmixpp::server {

// Takes a copy of the host's topology (PMIX_TOPOLOGY2). Without one, nothing is
// loaded at init: hwloc's discovery (and the plugins it opens: PCI, GL,
// OpenCL, with their libraries) is the largest part of a server's start,
// and many jobs never need it.
void setup_topology(Server &server);

// The node's topology, discovered on first use. Progress thread. A failure
// to load one is not fatal: locality strings are then not derived.
hwloc_topology_t node_topology(Server &server);

// Stores the topology as PMIX_HWLOC_XML_V2 in nspace's node data of node
// `local_nodeid` (this node), when the host asked to share it. A failure is
// logged and not fatal: clients then discover the topology themselves.
void share_topology(Server &server, const std::string &nspace, uint32_t local_nodeid);

}  // namespace pmixpp::server

#endif
