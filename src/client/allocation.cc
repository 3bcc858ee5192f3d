// Allocation requests to the scheduler. Issue 7 (allocation and session
// control through pmixrun) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t /*directive*/,
                                      pmix_info_t * /*info*/, size_t /*ninfo*/,
                                      pmix_info_t ** /*results*/, size_t * /*nresults*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t /*directive*/,
                                         pmix_info_t * /*info*/, size_t /*ninfo*/,
                                         pmix_info_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
