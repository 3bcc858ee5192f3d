// Node resource inventory gathered by the pnet components. Issue 6 (pnet)
// fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_collect_inventory(pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                            pmix_info_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_deliver_inventory(pmix_info_t /*info*/[], size_t /*ninfo*/,
                                            pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                            pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
