// Non-job information the host registers (nodes, fabrics). Issue 3
// (server/client core) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_register_resources(pmix_info_t /*info*/[], size_t /*ninfo*/,
                                             pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_deregister_resources(pmix_info_t /*info*/[], size_t /*ninfo*/,
                                               pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
