// Topology, binding and locality through hwloc. Issue 3 (server/client
// core) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Compute_distances(pmix_topology_t * /*topo*/, pmix_cpuset_t * /*cpuset*/,
                                     pmix_info_t /*info*/[], size_t /*ninfo*/,
                                     pmix_device_distance_t * /*distances*/[],
                                     size_t * /*ndist*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t * /*topo*/,
                                        pmix_cpuset_t * /*cpuset*/, pmix_info_t /*info*/[],
                                        size_t /*ninfo*/,
                                        pmix_device_dist_cbfunc_t /*cbfunc*/,
                                        void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Load_topology(pmix_topology_t * /*topo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Parse_cpuset_string(const char * /*cpuset_string*/,
                                       pmix_cpuset_t * /*cpuset*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t * /*cpuset*/, pmix_bind_envelope_t /*ref*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Get_relative_locality(const char * /*locality1*/,
                                         const char * /*locality2*/,
                                         pmix_locality_t * /*locality*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
