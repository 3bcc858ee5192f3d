// Named process sets defined by the host. Issue 3 (server/client core)
// fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_define_process_set(const pmix_proc_t * /*members*/,
                                             size_t /*nmembers*/,
                                             const char * /*pset_name*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_delete_process_set(char * /*pset_name*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
