// Server life cycle: listener, rendezvous, host module. Issue 3
// (server/client core) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_init(pmix_server_module_t * /*module*/, pmix_info_t /*info*/[],
                               size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_finalize(void)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
