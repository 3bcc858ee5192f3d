// Process monitoring and heartbeats. Issue 3 (server/client core) fills
// these in.
#include <pmix.h>

pmix_status_t PMIx_Process_monitor(const pmix_info_t * /*monitor*/, pmix_status_t /*error*/,
                                   const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                   pmix_info_t ** /*results*/, size_t * /*nresults*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t * /*monitor*/, pmix_status_t /*error*/,
                                      const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                                      pmix_info_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
