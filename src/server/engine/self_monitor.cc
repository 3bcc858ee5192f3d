// Self-access, monitoring: the host's PMIx_Process_monitor goes through the
// same path as a client's (the host's upcall, else the server's own
// monitors), owned by no connection (see self_access.h).
#include "server/engine/self_access.h"

#include "server/engine/self_ops.h"
#include "server/state/server.h"
#include "server/requests/requests.h"
#include "server/monitor/monitor_registry.h"

#include <memory>
#include <new>

namespace pmixpp::server {

pmix_status_t server_monitor_nb(const pmix_info_t &monitor, pmix_status_t error, const pmix_info_t directives[],
                                std::size_t ndirs, MonitorDone done)
{
    try {
        auto request = std::make_shared<wire::MonitorRequest>();
        request->error = error;
        pmix_status_t rc = request->monitor.assign_copy(&monitor, 1);
        if (rc == PMIX_SUCCESS) rc = request->directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        auto shared_done = std::make_shared<MonitorDone>(std::move(done));
        return post_self(
            [request, shared_done](Server &server) {
                start_monitor(server, kNoPeer, server.self_proc(), std::move(*request),
                              track_self_op<wire::InfoReply>(server, std::move(*shared_done)));
            },
            [shared_done](pmix_status_t status) {
                wire::InfoReply reply;
                reply.status = status;
                if (*shared_done) (*shared_done)(reply);
            });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t server_heartbeat()
{
    // A beat waits for nothing: posted, not run and waited for.
    if (!server_running()) return PMIX_ERR_INIT;
    post_to_server([](Server &server) { server.part<monitor::MonitorRegistry>().beat(kNoPeer); });
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::server
