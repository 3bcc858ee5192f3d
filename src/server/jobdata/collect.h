// First pass of registration: walks the (possibly nested) info array handed
// to PMIx_server_register_nspace and sorts every entry by the level it
// describes, without copying values (they stay in the host's array for the
// duration of the call).
#ifndef PMIXPP_SERVER_JOBDATA_COLLECT_H
#define PMIXPP_SERVER_JOBDATA_COLLECT_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pmixpp::jobdata {

using InfoRefs = std::vector<const pmix_info_t *>;

struct GivenNode {
    std::optional<uint32_t> nodeid;
    std::optional<std::string> hostname;
    InfoRefs infos;
};

struct GivenApp {
    InfoRefs infos;
};

struct GivenProc {
    InfoRefs infos;
    std::optional<uint32_t> appnum;
    std::optional<uint32_t> nodeid;
    std::optional<std::string> hostname;
    const char *cpuset = nullptr; // PMIX_CPUSET text (hwloc list or mask)
};

struct Collected {
    bool nodata = false;
    std::optional<uint32_t> session_id;
    InfoRefs session;
    InfoRefs job;
    InfoRefs local_node;            // flat node keys: they describe this node
    std::map<uint32_t, GivenApp> apps;
    std::vector<GivenNode> nodes;
    std::map<pmix_rank_t, GivenProc> procs;
    std::string node_map;           // PMIX_NODE_MAP of the job, if given
    std::string proc_map;           // PMIX_PROC_MAP of the job, if given

    // Numbers the host gave (already type-checked).
    std::optional<uint32_t> job_size, univ_size, max_procs, num_apps, session_max_procs;
    std::optional<pmix_rank_t> nproc_offset;
};

// PMIX_SUCCESS, or PMIX_ERR_BAD_PARAM / PMIX_ERR_TYPE_MISMATCH with *error_p
// naming the offending attribute.
pmix_status_t collect(const char *nspace, const pmix_info_t info[], std::size_t ninfo,
                      Collected *out_p, std::string *error_p);

// Reads an integer value of any integer type into a uint32_t (range-checked).
bool as_uint32(const pmix_value_t &value, uint32_t *out_p);

} // namespace pmixpp::jobdata

#endif
