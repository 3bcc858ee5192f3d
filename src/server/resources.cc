// PMIx_server_register_resources / PMIx_server_deregister_resources (4.2):
// node-level information that belongs to no job (state/node_resources.h).
// Both do their work before returning and answer as register_nspace does
// (op_result in state/server.h): PMIX_OPERATION_SUCCEEDED without a
// callback, PMIX_SUCCESS and the callback later with one.
#include <pmix_server.h>

#include "common/runtime/log.h"
#include "server/state/node_resources.h"
#include "server/state/server.h"

#include <new>
#include <string>

using namespace pmixpp::server;

namespace {

using Operation = pmix_status_t (*)(Server &, const pmix_info_t[], std::size_t, std::string *);

pmix_status_t run(const char *name, Operation operation, const pmix_info_t info[], size_t ninfo,
                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (info == nullptr || ninfo == 0) return PMIX_ERR_BAD_PARAM;
    try {
        const pmix_status_t result = with_server([&](Server &server) {
            std::string error;
            const pmix_status_t rc = operation(server, info, ninfo, &error);
            if (rc == PMIX_SUCCESS) return rc;
            pmixpp::runtime::log_warning("server", std::string(name) + ": " +
                                                       (error.empty() ? PMIx_Error_string(rc) : error) +
                                                       " (fix the info array)");
            return rc;
        });
        return op_result(result, cbfunc, cbdata);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return run("PMIx_server_register_resources", register_node_resources, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return run("PMIx_server_deregister_resources", deregister_node_resources, info, ninfo, cbfunc, cbdata);
}
