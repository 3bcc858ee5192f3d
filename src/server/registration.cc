// Registration of namespaces and local clients, and their fork
// environment. Issue 3 (server/client core) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t /*nspace*/, int /*nlocalprocs*/,
                                          pmix_info_t /*info*/[], size_t /*ninfo*/,
                                          pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

void PMIx_server_deregister_nspace(const pmix_nspace_t /*nspace*/,
                                   pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
}

pmix_status_t PMIx_server_register_client(const pmix_proc_t * /*proc*/, uid_t /*uid*/,
                                          gid_t /*gid*/, void * /*server_object*/,
                                          pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

void PMIx_server_deregister_client(const pmix_proc_t * /*proc*/, pmix_op_cbfunc_t /*cbfunc*/,
                                   void * /*cbdata*/)
{
}

pmix_status_t PMIx_server_setup_fork(const pmix_proc_t * /*proc*/, char *** /*env*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
