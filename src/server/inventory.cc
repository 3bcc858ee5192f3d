// Node resource inventory gathered by, and handed to, the pnet components
// (server/pnet/inventory_calls.h). Both calls return at once; the callback
// runs later, once.
#include <pmix_server.h>

#include "server/events/delivery.h"
#include "server/state/server.h"
#include "server/pnet/inventory_calls.h"

#include <new>

using namespace pmixpp::server;

pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs, pmix_info_cbfunc_t cbfunc,
                                            void *cbdata)
{
    // Without a callback the inventory could never reach the host.
    if (cbfunc == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        return with_server(
            [&](Server &server) { return pnet::collect_inventory(server, directives, ndirs, cbfunc, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo, pmix_info_t directives[], size_t ndirs,
                                            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if ((info == nullptr && ninfo > 0) || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    try {
        return with_server([&](Server &server) {
            return pnet::deliver_inventory(server, info, ninfo, directives, ndirs, cbfunc, cbdata);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
