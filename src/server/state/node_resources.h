// PMIx_server_register_resources / deregister_resources (PMIx 4.2):
// node-level information about this host's node(s) that belongs to no job
// (memory, devices, fabric endpoints, ...).
//
// The info array holds either PMIX_NODE_INFO_ARRAY entries (one node each,
// named by PMIX_NODEID and/or PMIX_HOSTNAME inside it) or plain entries that
// describe the node this server runs on. A node named by hostname only gets
// the id the registered jobs know it by, else the next free id.
//
// The values live in the store under a namespace of their own (node level),
// and a PMIx_Get that finds nothing in the target's namespace and asks about
// a node (PMIX_NODE_INFO, PMIX_NODEID, PMIX_HOSTNAME or a node-level key)
// falls back to it, so the host (self-access) and its clients both find
// them. Deregistration removes the keys named in each node's array, or the
// whole node when the array only names the node.
// Progress thread only.
#ifndef PMIXPP_SERVER_STATE_NODE_RESOURCES_H
#define PMIXPP_SERVER_STATE_NODE_RESOURCES_H

#include "common/store/resolver.h"
#include "server/state/server.h"

#include <pmix_common.h>

#include <cstddef>
#include <string>

namespace pmixpp::server {

inline constexpr const char *kResourceNamespace = "pmixpp.node-resources";

// PMIX_ERR_BAD_PARAM (and *error_p) for a malformed node array.
pmix_status_t register_node_resources(Server &server, const pmix_info_t info[], std::size_t ninfo,
                                      std::string *error_p);
pmix_status_t deregister_node_resources(Server &server, const pmix_info_t info[], std::size_t ninfo,
                                        std::string *error_p);

// A node-level value the host registered, for a lookup that found nothing
// in the target's own namespace and asks about a node (PMIX_NODE_INFO,
// PMIX_NODEID, PMIX_HOSTNAME or a node-level key). PMIX_ERR_NOT_FOUND
// otherwise.
pmix_status_t get_node_resource(Server &server, const store::GetRequest &request, store::ValuePtr *value_p);

}  // namespace pmixpp::server

#endif
