// PMIx_server_IOF_deliver: output the host forwards to tools. Tools connect
// with issue 4; until then nobody can have registered for output, so the
// data is accepted and dropped (PMIX_SUCCESS, callback after return).
#include <pmix_server.h>

#include "server/core/server.h"

pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source, pmix_iof_channel_t /*channel*/,
                                      const pmix_byte_object_t *bo, const pmix_info_t info[],
                                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    using pmixpp::server::Server;
    if (source == nullptr || bo == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    Server *server = pmixpp::server::current();
    if (server == nullptr) return PMIX_ERR_INIT;
    if (cbfunc == nullptr) return PMIX_OPERATION_SUCCEEDED;
    if (server->engine.post([cbfunc, cbdata] { cbfunc(PMIX_SUCCESS, cbdata); }) != PMIX_SUCCESS) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    return PMIX_SUCCESS;
}
