// PMIx_server_collect_inventory / PMIx_server_deliver_inventory across the
// pnet components (pnet API 1.1): each active component that has the hook
// adds what this node has, or takes what another node gathered. Hooks run
// on the progress thread and do not block; the host's callback runs later,
// once, never before the call returned. A failing component is named in one
// line and left out.
#ifndef PMIXPP_SERVER_PNET_INVENTORY_CALLS_H
#define PMIXPP_SERVER_PNET_INVENTORY_CALLS_H

#include <pmix_server.h>

#include <cstddef>

namespace pmixpp::server {
class Server;
}

namespace pmixpp::server::pnet {

pmix_status_t collect_inventory(Server &server, const pmix_info_t directives[], std::size_t ndirs,
                                pmix_info_cbfunc_t cbfunc, void *cbdata);
pmix_status_t deliver_inventory(Server &server, const pmix_info_t info[], std::size_t ninfo,
                                const pmix_info_t directives[], std::size_t ndirs, pmix_op_cbfunc_t cbfunc,
                                void *cbdata);

}  // namespace pmixpp::server::pnet

#endif
