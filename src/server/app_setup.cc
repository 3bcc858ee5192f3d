// Job preconditioning through the pnet components (tokens, environment,
// local fabric setup). Issue 6 (pnet) fills these in.
#include <pmix_server.h>

pmix_status_t PMIx_server_setup_application(const pmix_nspace_t /*nspace*/,
                                            pmix_info_t /*info*/[], size_t /*ninfo*/,
                                            pmix_setup_application_cbfunc_t /*cbfunc*/,
                                            void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t /*nspace*/,
                                              pmix_info_t /*info*/[], size_t /*ninfo*/,
                                              pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
