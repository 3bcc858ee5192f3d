// Connect/disconnect of namespaces. Issue 3 (server/client core) fills
// these in.
#include <pmix.h>

pmix_status_t PMIx_Connect(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                           const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Connect_nb(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                              const pmix_info_t /*info*/[], size_t /*ninfo*/,
                              pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Disconnect(const pmix_proc_t /*procs*/[], size_t /*nprocs*/,
                              const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t /*ranges*/[], size_t /*nprocs*/,
                                 const pmix_info_t /*info*/[], size_t /*ninfo*/,
                                 pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
