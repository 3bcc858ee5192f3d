// Turns the info of PMIx_server_register_nspace into stored data: everything
// the host gave, sorted into session / job / app / node / proc levels
// (flat or nested *_INFO_ARRAY, any depth), plus everything a client expects
// that the host did not give but that follows from what it did give (sizes,
// local and node ranks, local peers, node ids, hostnames, leaders, locality
// strings). What the host gave always wins over a derived value.
//
// Per-proc keys that follow from the rank and job/app/node data (PMIX_RANK,
// PMIX_GLOBAL_RANK, PMIX_HOSTNAME, and in a job of one application
// PMIX_APPNUM and PMIX_APP_RANK) are not stored per proc: the Store facade
// derives them on fetch (common/store/derived_keys.h). A proc of a big job
// then costs three stored values (local rank, node rank, node id).
//
// Cost is linear in the size of the job: per-node rank lists are built once.
#ifndef PMIXPP_SERVER_JOBDATA_REGISTRATION_H
#define PMIXPP_SERVER_JOBDATA_REGISTRATION_H

#include "common/store/store.h"

#include <pmix_common.h>

#include <hwloc.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::jobdata {

struct Options {
    // Name of the node this server runs on (PMIx_server_init's PMIX_HOSTNAME,
    // else gethostname()), and whether the host gave it: one of the hints
    // that decide which node is "local" (layout.h).
    std::string_view local_hostname;
    bool local_hostname_given = false;
    // Topology of this node for PMIX_LOCALITY_STRING, asked for only when a
    // local proc has a cpuset. Empty, or NULL returned: no locality strings
    // are derived (a host-given one is still stored).
    std::function<hwloc_topology_t()> topology;
};

// What the server core needs to know about a registered job.
struct JobSummary {
    uint32_t job_size = 0;
    uint32_t num_nodes = 0;
    uint32_t num_apps = 0;
    bool nodata = false;            // PMIX_REGISTER_NODATA was given
    bool local_node_known = false;  // this node is one of the job's nodes
    uint32_t local_nodeid = 0;
    std::string local_hostname;            // this node's name in the job ("" when it has none)
    std::vector<pmix_rank_t> local_ranks;  // ranks on this node, ascending
};

// Registers `nspace`. PMIX_OPERATION_SUCCEEDED on success (the value
// PMIx_server_register_nspace returns when it completes at once); on error a
// PMIx status and, when error_p is given, a message naming the offending
// attribute. On error nothing of the namespace stays in the store.
pmix_status_t register_nspace(const char *nspace, int nlocalprocs, const pmix_info_t info[], std::size_t ninfo,
                              const Options &options, const store::Store &store, JobSummary *summary_p,
                              std::string *error_p = nullptr);

// Forgets everything stored for nspace. PMIX_ERR_NOT_FOUND if it is unknown.
pmix_status_t deregister_nspace(const char *nspace, const store::Store &store);

}  // namespace pmixpp::jobdata

#endif
