// PMIx_Process_monitor(_nb) and, through the PMIx_Heartbeat macro of
// pmix.h, heartbeats. A connected client or tool asks its server (which
// asks its host, else runs heartbeat and file monitors itself); a process
// that runs the server, and has no server of its own to ask, asks it
// directly (server/engine/self_access.h). A
// heartbeat is one message that is never answered: the _nb call returns
// PMIX_SUCCESS without calling back, and the blocking call returns
// PMIX_SUCCESS at once (OpenPMIx's would wait forever for a reply that
// never comes).
#include <pmix.h>

#include <cstring>
#include <functional>
#include <memory>
#include <new>

#include "client/core/host_call.h"
#include "client/core/requests.h"
#include "client/core/host_mode.h"
#include "client/no_results.h"
#include "server/engine/self_access.h"

using namespace pmixpp;

namespace {

using MonitorDone = std::function<void(pmix_status_t, std::shared_ptr<wire::InfoReply>)>;

bool is_heartbeat(const pmix_info_t &monitor)
{
    return std::strncmp(monitor.key, PMIX_SEND_HEARTBEAT, PMIX_MAX_KEYLEN) == 0;
}

pmix_status_t check_args(const pmix_info_t *monitor, const pmix_info_t directives[], size_t ndirs)
{
    if (!client::current_session() && !client::host_mode()) return PMIX_ERR_INIT;
    if (monitor == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    return PMIX_SUCCESS;
}

// No server to ask, but one runs in this process: the host itself, or a
// tool without a server of its own that runs one (a launcher).
bool ask_own_server(const std::shared_ptr<client::Session> &session)
{
    return !session || (session->singleton && server::server_running());
}

pmix_status_t send_heartbeat()
{
    std::shared_ptr<client::Session> session = client::current_session();
    if (ask_own_server(session)) return server::server_heartbeat();
    if (session->singleton) return PMIX_ERR_UNREACH;  // no server to hear it
    wire::Bytes payload;
    const pmix_status_t rc = wire::encode_to_bytes(wire::HeartbeatRequest{}, &payload);
    return rc != PMIX_SUCCESS ? rc : client::send_oneway(session, payload);
}

// The host path hands its reply by reference; the client side shares it.
server::MonitorDone from_server(MonitorDone done)
{
    return [done = std::move(done)](wire::InfoReply &reply) {
        auto shared = std::make_shared<wire::InfoReply>(std::move(reply));
        done(shared->status, shared);
    };
}

// Arguments are checked; monitor is not a heartbeat.
pmix_status_t start_monitor(const pmix_info_t &monitor, pmix_status_t error, const pmix_info_t directives[],
                            size_t ndirs, MonitorDone done)
{
    std::shared_ptr<client::Session> session = client::current_session();
    if (ask_own_server(session)) {
        return server::server_monitor_nb(monitor, error, directives, ndirs, from_server(std::move(done)));
    }
    if (session->singleton) return PMIX_ERR_UNREACH;  // nobody to watch over it
    wire::MonitorRequest request;
    request.error = error;
    pmix_status_t rc = request.monitor.assign_copy(&monitor, 1);
    if (rc == PMIX_SUCCESS) rc = request.directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_for_reply<wire::InfoReply>(
        session, request, client::timeout_of(directives, ndirs, client::kServerTimeoutMargin), std::move(done));
}

}  // namespace

pmix_status_t PMIx_Process_monitor(const pmix_info_t *monitor, pmix_status_t error, const pmix_info_t directives[],
                                   size_t ndirs, pmix_info_t **results, size_t *nresults)
{
    client::no_results(results, nresults);
    try {
        pmix_status_t rc = check_args(monitor, directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        if (is_heartbeat(*monitor)) return send_heartbeat();
        std::shared_ptr<wire::InfoReply> reply;
        rc = client::wait_for_reply<wire::InfoReply>(
            [&](MonitorDone done) { return start_monitor(*monitor, error, directives, ndirs, std::move(done)); },
            &reply);
        if (reply && results != nullptr && nresults != nullptr) *results = reply->info.release(nresults);
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t *monitor, pmix_status_t error, const pmix_info_t directives[],
                                      size_t ndirs, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    try {
        const pmix_status_t rc = check_args(monitor, directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        if (is_heartbeat(*monitor)) return send_heartbeat();
        return start_monitor(*monitor, error, directives, ndirs, client::info_callback(cbfunc, cbdata));
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
