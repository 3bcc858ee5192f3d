// Turning job data into the answers of PMIx_Resolve_peers / _nodes.
#ifndef PMIXPP_CLIENT_CORE_PEERS_H
#define PMIXPP_CLIENT_CORE_PEERS_H

#include <cstddef>

#include <pmix_common.h>

namespace pmixpp::client {

// A PMIX_LOCAL_PEERS value ("0,1,5") as a calloc'ed array of procs of
// nspace. PMIX_ERR_NOT_FOUND for an empty list, PMIX_ERR_BAD_PARAM for a
// value that is not a string.
pmix_status_t procs_from_peer_list(const char *nspace, const pmix_value_t &peers, pmix_proc_t **procs_p,
                                   size_t *nprocs_p);

// A PMIX_NODE_LIST value as a strdup'ed string. PMIX_ERR_NOT_FOUND when it
// is not a non-empty string.
pmix_status_t nodelist_from(const pmix_value_t &list, char **nodelist_p);

}  // namespace pmixpp::client

#endif
