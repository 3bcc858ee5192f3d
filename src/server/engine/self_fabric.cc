// Self-access, fabrics: the host's PMIx_Fabric_* calls are answered as a
// client's would be (see self_access.h), on the progress thread.
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/state/server.h"
#include "server/requests/requests.h"

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_fabric_register_nb(const pmix_info_t directives[], std::size_t ndirs, FabricDone done)
{
    try {
        auto request = std::make_shared<wire::FabricRegisterRequest>();
        const pmix_status_t rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        return run_on_server<wire::FabricReply>(std::move(done), [request](Server &server, auto respond) {
            start_fabric_register(server, server.self_proc(), kNoPeer, std::move(*request), std::move(respond));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_fabric_update_nb(uint64_t index, FabricDone done)
{
    try {
        return run_on_server<wire::FabricReply>(std::move(done), [index](Server &server, auto respond) {
            start_fabric_update(server, server.self_proc(), kNoPeer, wire::FabricUpdateRequest{index},
                                std::move(respond));
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_fabric_deregister_nb(uint64_t index, FabricEndDone done)
{
    try {
        return run_on_server<wire::StatusReply>(std::move(done), [index](Server &server, auto respond) {
            wire::StatusReply reply;
            reply.status = end_fabric(server, kNoPeer, index);
            respond(reply);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::server
