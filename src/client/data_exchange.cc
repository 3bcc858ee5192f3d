// Put/commit/fence/get (the modex). Issue 3 (server/client core) fills these
// in; reads of local data must be answered on the caller's thread.
#include <pmix.h>

pmix_status_t PMIx_Put(pmix_scope_t /*scope*/, const char /*key*/[], pmix_value_t * /*val*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Commit(void)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fence(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                         const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Fence_nb(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                            const pmix_info_t /*info*/[], size_t /*ninfo*/,
                            pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Get(const pmix_proc_t * /*proc*/, const char /*key*/[],
                       const pmix_info_t /*info*/[], size_t /*ninfo*/, pmix_value_t ** /*val*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Get_nb(const pmix_proc_t * /*proc*/, const char /*key*/[],
                          const pmix_info_t /*info*/[], size_t /*ninfo*/,
                          pmix_value_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Store_internal(const pmix_proc_t * /*proc*/, const char /*key*/[],
                                  pmix_value_t * /*val*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
