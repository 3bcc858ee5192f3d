// PMIx_Process_monitor(_nb) of a client, a tool or the host itself
// (self-access), and PMIx_Heartbeat. A host that offers the monitor upcall
// decides first, in the requester's name; when it has none, or answers
// PMIX_ERR_NOT_SUPPORTED (now or through its callback), the server runs the
// monitor itself (server/monitor/). Heartbeats always feed the server's own
// heartbeat monitors: a host that runs its own has no way to hear them
// (OpenPMIx 4.2 behaves the same).
#include "server/state/peer_io.h"
#include "server/monitor/watch.h"
#include "server/requests/requests.h"
#include "server/monitor/monitor_registry.h"

#include <memory>
#include <new>

namespace pmixpp::server {

namespace {

// What the host is handed stays here until it calls back.
struct HostMonitor {
    pmix_proc_t requester{};
    PeerId owner = kNoPeer;
    wire::MonitorRequest request;
    MonitorResponder respond;
};

// The requester may have gone while the host thought about it: nothing to
// watch then (its monitors were stopped when it left).
bool owner_connected(Server &server, PeerId owner)
{
    if (owner == kNoPeer) return true;
    const Peer *peer = server.find_peer(owner);
    return peer != nullptr && peer->state == PeerState::connected;
}

void answer_locally(Server &server, const HostMonitor &call)
{
    if (!owner_connected(server, call.owner))
        return respond_status<wire::InfoReply>(call.respond, PMIX_ERR_LOST_CONNECTION);
    const wire::MonitorRequest &request = call.request;
    respond_status<wire::InfoReply>(call.respond,
                                    monitor::run_local(server, call.owner, call.requester, request.monitor[0],
                                                       request.directives.data(), request.directives.size()));
}

void host_monitor_done(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata,
                       pmix_release_cbfunc_t release, void *release_cbdata)
{
    std::shared_ptr<HostMonitor> call(static_cast<HostMonitor *>(cbdata));
    auto reply = std::make_shared<wire::InfoReply>();
    reply->status = status;
    if (info != nullptr && ninfo > 0) {
        const pmix_status_t rc = reply->info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS && status == PMIX_SUCCESS) reply->status = rc;
    }
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    // The host may answer from any thread, even inside the upcall.
    post_to_server([call, reply](Server &server) {
        if (reply->status == PMIX_ERR_NOT_SUPPORTED) return answer_locally(server, *call);
        call->respond(*reply);
    });
}

}  // namespace

void start_monitor(Server &server, PeerId owner, const pmix_proc_t &requester, wire::MonitorRequest request,
                   MonitorResponder respond)
{
    std::unique_ptr<HostMonitor> call(new (std::nothrow) HostMonitor{requester, owner, {}, {}});
    if (call == nullptr) return respond_status<wire::InfoReply>(respond, PMIX_ERR_NOMEM);
    call->request = std::move(request);
    call->respond = std::move(respond);
    const auto upcall = server.host.slots().monitor;
    if (upcall == nullptr) return answer_locally(server, *call);
    const wire::MonitorRequest &held = call->request;
    const pmix_status_t rc = upcall(&call->requester, &held.monitor[0], held.error, held.directives.data(),
                                    held.directives.size(), host_monitor_done, call.get());
    if (rc == PMIX_SUCCESS) {
        call.release();  // host_monitor_done owns it now
        return;
    }
    if (rc == PMIX_ERR_NOT_SUPPORTED) return answer_locally(server, *call);
    respond_status<wire::InfoReply>(call->respond, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

void handle_monitor(Server &server, Peer &peer, uint32_t tag, wire::MonitorRequest &request)
{
    start_monitor(server, peer.id, peer.proc, std::move(request), answer_peer<wire::InfoReply>(peer.id, tag));
}

void handle_heartbeat(Server &server, Peer &peer, uint32_t tag, wire::HeartbeatRequest &)
{
    server.part<monitor::MonitorRegistry>().beat(peer.id);
    // A heartbeat asks for no answer; one sent with a tag still gets one, so
    // that it does not count against the peer's pending requests forever.
    if (tag != wire::kNoTag) reply_status(server, peer.id, tag, PMIX_SUCCESS);
}

}  // namespace pmixpp::server
