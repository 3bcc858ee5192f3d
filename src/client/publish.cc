// Publish/lookup/unpublish, relayed to the host's name service. Issue 7
// (publish through pmixrun) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Publish(const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Publish_nb(const pmix_info_t /*info*/[], size_t /*ninfo*/,
                              pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Lookup(pmix_pdata_t /*data*/[], size_t /*ndata*/,
                          const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Lookup_nb(char ** /*keys*/, const pmix_info_t /*info*/[], size_t /*ninfo*/,
                             pmix_lookup_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Unpublish(char ** /*keys*/, const pmix_info_t /*info*/[], size_t /*ninfo*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Unpublish_nb(char ** /*keys*/, const pmix_info_t /*info*/[],
                                size_t /*ninfo*/, pmix_op_cbfunc_t /*cbfunc*/,
                                void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
