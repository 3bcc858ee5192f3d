// PMIx_server_setup_application and PMIx_server_setup_local_support: job
// preconditioning through the pnet components (server/pnet/setup_calls.h).
// Both return at once; the callback runs later, on the progress thread, once.
#include <pmix_server.h>

#include "server/state/server.h"
#include "server/pnet/setup_calls.h"

#include <pmixpp/util.hpp>

#include <cstring>
#include <new>
#include <string>

using namespace pmixpp::server;

namespace {

using pmixpp::util::valid_nspace;

}  // namespace

pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace, pmix_info_t info[], size_t ninfo,
                                            pmix_setup_application_cbfunc_t cbfunc, void *cbdata)
{
    // Without a callback the result could never reach the host.
    if (!valid_nspace(nspace) || cbfunc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        const std::string name(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
        return with_server(
            [&](Server &server) { return pnet::start_application(server, name, info, ninfo, cbfunc, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace, pmix_info_t info[], size_t ninfo,
                                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!valid_nspace(nspace) || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        const std::string name(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
        return with_server(
            [&](Server &server) { return pnet::start_local_support(server, name, info, ninfo, cbfunc, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
