// Queries and logging. Issue 3 (server/client core) fills these in.
#include <pmix.h>

pmix_status_t PMIx_Query_info(pmix_query_t /*queries*/[], size_t /*nqueries*/,
                              pmix_info_t ** /*results*/, size_t * /*nresults*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Query_info_nb(pmix_query_t /*queries*/[], size_t /*nqueries*/,
                                 pmix_info_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Log(const pmix_info_t /*data*/[], size_t /*ndata*/,
                       const pmix_info_t /*directives*/[], size_t /*ndirs*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

pmix_status_t PMIx_Log_nb(const pmix_info_t /*data*/[], size_t /*ndata*/,
                          const pmix_info_t /*directives*/[], size_t /*ndirs*/,
                          pmix_op_cbfunc_t /*cbfunc*/, void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
