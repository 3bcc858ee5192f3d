// Spawn of new jobs, relayed to the host. Issue 7 (spawn through pmixrun)
// fills these in.
#include <pmix.h>

pmix_status_t PMIx_Spawn(const pmix_info_t /*job_info*/[], size_t /*ninfo*/,
                         const pmix_app_t /*apps*/[], size_t /*napps*/,
                         pmix_nspace_t /*nspace*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Spawn_nb(const pmix_info_t /*job_info*/[], size_t /*ninfo*/,
                            const pmix_app_t /*apps*/[], size_t /*napps*/,
                            pmix_spawn_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
