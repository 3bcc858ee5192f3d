// Locality and cpuset strings handed to clients, from hwloc cpusets: the
// locality notation of jobdata/locality.h over the server's topology, and
// "hwloc:<list>" for a cpuset.
#include <pmix_server.h>

#include "common/values/hwloc_ops.h"
#include "server/state/server.h"
#include "server/state/topology.h"
#include "server/jobdata/locality.h"

#include <hwloc.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace {

pmix_status_t cpuset_list(const pmix_cpuset_t *cpuset, std::string *list_p)
{
    if (cpuset == nullptr || cpuset->bitmap == nullptr) return PMIX_ERR_BAD_PARAM;
    if (!pmixpp::values::is_hwloc_source(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
    char *text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, static_cast<hwloc_const_bitmap_t>(cpuset->bitmap)) < 0 || text == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    *list_p = text;
    std::free(text);
    return PMIX_SUCCESS;
}

pmix_status_t hand_out(const std::string &text, char **out_p)
{
    char *copy = strdup(text.c_str());
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    *out_p = copy;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t *cpuset, char **locality)
{
    if (locality == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::string list;
        pmix_status_t rc = cpuset_list(cpuset, &list);
        if (rc != PMIX_SUCCESS) return rc;
        std::string text;
        rc = pmixpp::server::with_server([&](pmixpp::server::Server &server) {
            hwloc_topology_t topology = pmixpp::server::node_topology(server);
            if (topology == nullptr) return PMIX_ERR_NOT_AVAILABLE;
            text = pmixpp::jobdata::locality_string(topology, list.c_str());
            return PMIX_SUCCESS;
        });
        if (rc != PMIX_SUCCESS) return rc;
        if (text.empty()) return PMIX_ERR_NOT_FOUND;  // the cpuset overlaps nothing here
        return hand_out(text, locality);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t *cpuset, char **cpuset_string)
{
    if (cpuset_string == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::string list;
        const pmix_status_t rc = cpuset_list(cpuset, &list);
        if (rc != PMIX_SUCCESS) return rc;
        return hand_out("hwloc:" + list, cpuset_string);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
