// Requests that change what runs, each relayed to the host: PMIx_Spawn (its
// spawn upcall), PMIx_Allocation_request (allocate), PMIx_Session_control
// (pmixpp's session-control extension, pmix_server.h) and the PMIx_Log
// channels a client cannot serve itself (log). Without the upcall the
// requester hears PMIX_ERR_NOT_SUPPORTED. What the host is handed stays
// valid until it calls back; its answer is copied before it is released.
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/host/host_module.h"
#include "server/requests/requests.h"

#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>

namespace pmixpp::server {

namespace {

// A call handed to the host: the request it reads, and whom to answer
// (a peer, or the host itself in host mode).
template <typename Request, typename Reply> struct HostCall {
    pmix_proc_t requester{};
    Request request;
    std::function<void(Reply &)> respond;
};

// The answer to send when the upcall itself returned `rc`.
pmix_status_t immediate_status(pmix_status_t rc, pmix_status_t succeeded_means)
{
    return rc == PMIX_OPERATION_SUCCEEDED ? succeeded_means : rc;
}

// A spawn handed to the host, for a client or for the host itself.
struct SpawnCall {
    pmix_proc_t requester{};
    wire::SpawnRequest request;
    SpawnResponder respond;
};

void spawn_done(pmix_status_t status, char nspace[], void *cbdata)
{
    std::unique_ptr<SpawnCall> call(static_cast<SpawnCall *>(cbdata));
    if (call == nullptr) return;
    auto reply = std::make_shared<wire::SpawnReply>();
    reply->status = status;
    if (status == PMIX_SUCCESS && nspace != nullptr) reply->nspace.assign(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
    if (status == PMIX_SUCCESS && reply->nspace.empty()) {
        runtime::log_warning("server", "the host's spawn reported success without a namespace; "
                                       "telling the requester PMIX_ERR_BAD_PARAM (fix the host's spawn callback)");
        reply->status = PMIX_ERR_BAD_PARAM;
    }
    // The answer runs on the progress thread, after the upcall returned.
    post_to_server([respond = std::move(call->respond), reply](Server &) { respond(*reply); });
}

using InfoCall = HostCall<wire::AllocateRequest, wire::InfoReply>;
using SessionCall = HostCall<wire::SessionControlRequest, wire::InfoReply>;
using LogCall = HostCall<wire::LogRequest, wire::StatusReply>;

// For allocate and session control: the host's info answer, copied.
template <typename Call>
void info_done(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata, pmix_release_cbfunc_t release,
               void *release_cbdata)
{
    std::unique_ptr<Call> call(static_cast<Call *>(cbdata));
    auto reply = std::make_shared<wire::InfoReply>();
    reply->status = status;
    if (ninfo > 0 && info != nullptr) {
        const pmix_status_t rc = reply->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS && status == PMIX_SUCCESS) reply->status = rc;
    }
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    post_to_server([respond = std::move(call->respond), reply](Server &) { respond(*reply); });
}

void log_done(pmix_status_t status, void *cbdata)
{
    std::unique_ptr<LogCall> call(static_cast<LogCall *>(cbdata));
    if (call == nullptr) return;
    post_to_server(
        [respond = std::move(call->respond), status](Server &) { respond_status<wire::StatusReply>(respond, status); });
}

}  // namespace

void start_spawn(Server &server, const pmix_proc_t &requester, wire::SpawnRequest request, SpawnResponder respond)
{
    const auto upcall = server.host.slots().spawn;
    wire::SpawnReply refused;
    refused.status = PMIX_ERR_NOT_SUPPORTED;
    if (upcall == nullptr) return respond(refused);
    auto *call = new (std::nothrow) SpawnCall{requester, std::move(request), std::move(respond)};
    refused.status = PMIX_ERR_NOMEM;
    if (call == nullptr) return respond(refused);
    const pmix_status_t rc = upcall(&call->requester, call->request.job_info.data(), call->request.job_info.size(),
                                    call->request.apps.data(), call->request.apps.size(), spawn_done, call);
    if (rc == PMIX_SUCCESS) return;
    std::unique_ptr<SpawnCall> refused_call(call);
    // "Succeeded at once" without a namespace cannot be answered.
    refused.status = immediate_status(rc, PMIX_ERR_BAD_PARAM);
    refused_call->respond(refused);
}

void handle_spawn(Server &server, Peer &peer, uint32_t tag, wire::SpawnRequest &request)
{
    start_spawn(server, peer.proc, std::move(request), answer_peer<wire::SpawnReply>(peer.id, tag));
}

void start_allocate(Server &server, const pmix_proc_t &requester, wire::AllocateRequest request, InfoResponder respond)
{
    const auto upcall = server.host.slots().allocate;
    if (upcall == nullptr) return respond_status<wire::InfoReply>(respond, PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) InfoCall{requester, std::move(request), respond};
    if (call == nullptr) return respond_status<wire::InfoReply>(respond, PMIX_ERR_NOMEM);
    const pmix_status_t rc = upcall(&call->requester, call->request.directive, call->request.info.data(),
                                    call->request.info.size(), info_done<InfoCall>, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    respond_status<wire::InfoReply>(respond, immediate_status(rc, PMIX_SUCCESS));
}

void handle_allocate(Server &server, Peer &peer, uint32_t tag, wire::AllocateRequest &request)
{
    start_allocate(server, peer.proc, std::move(request), answer_peer<wire::InfoReply>(peer.id, tag));
}

void handle_session_control(Server &server, Peer &peer, uint32_t tag, wire::SessionControlRequest &request)
{
    const auto respond = answer_peer<wire::InfoReply>(peer.id, tag);
    const auto upcall = server.host.session_control();
    if (upcall == nullptr) return respond_status<wire::InfoReply>(respond, PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) SessionCall{peer.proc, std::move(request), respond};
    if (call == nullptr) return respond_status<wire::InfoReply>(respond, PMIX_ERR_NOMEM);
    const pmix_status_t rc = upcall(&call->requester, call->request.session_id, call->request.directives.data(),
                                    call->request.directives.size(), info_done<SessionCall>, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    respond_status<wire::InfoReply>(respond, immediate_status(rc, PMIX_SUCCESS));
}

void start_log(Server &server, const pmix_proc_t &requester, wire::LogRequest request, StatusResponder respond)
{
    const auto upcall = server.host.slots().log;
    if (upcall == nullptr) return respond_status<wire::StatusReply>(respond, PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) LogCall{requester, std::move(request), respond};
    if (call == nullptr) return respond_status<wire::StatusReply>(respond, PMIX_ERR_NOMEM);
    // The log upcall returns nothing: it always answers through log_done.
    upcall(&call->requester, call->request.data.data(), call->request.data.size(), call->request.directives.data(),
           call->request.directives.size(), log_done, call);
}

void handle_log(Server &server, Peer &peer, uint32_t tag, wire::LogRequest &request)
{
    start_log(server, peer.proc, std::move(request), answer_peer<wire::StatusReply>(peer.id, tag));
}

}  // namespace pmixpp::server
