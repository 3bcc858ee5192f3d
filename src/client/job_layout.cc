// Which procs run where, answered from the registered job data. Issue 3
// (server/client core) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Resolve_peers(const char * /*nodename*/, const pmix_nspace_t /*nspace*/,
                                 pmix_proc_t ** /*procs*/, size_t * /*nprocs*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t /*nspace*/, char ** /*nodelist*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
