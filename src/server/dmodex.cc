// Direct-modex requests relayed by the host from other nodes. Issue 3
// (server/client core) fills this in.
#include <pmix_server.h>

pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t * /*proc*/,
                                         pmix_dmodex_response_fn_t /*cbfunc*/,
                                         void * /*cbdata*/)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
