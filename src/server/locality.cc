// Locality and cpuset strings handed to clients. Issue 3 (server/client
// core) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t * /*cpuset*/,
                                                   char ** /*locality*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t * /*cpuset*/,
                                                 char ** /*cpuset_string*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
