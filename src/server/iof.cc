// PMIx_server_IOF_deliver: output the host forwards to tools. Tools connect
// with issue 4; until then nobody can have registered for output, so the
// data is accepted and dropped (answered as op_result in core/server.h says).
#include <pmix_server.h>

#include "server/core/server.h"

pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source, pmix_iof_channel_t /*channel*/,
                                      const pmix_byte_object_t *bo, const pmix_info_t info[],
                                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (source == nullptr || bo == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    if (pmixpp::server::current() == nullptr) return PMIX_ERR_INIT;
    return pmixpp::server::op_result(PMIX_SUCCESS, cbfunc, cbdata);
}
