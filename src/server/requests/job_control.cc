// PMIx_Job_control(_nb). A request with cleanup registrations
// (PMIX_REGISTER_CLEANUP, PMIX_REGISTER_CLEANUP_DIR, PMIX_CLEANUP_IGNORE) is
// the server's own business (RFC0027: strictly local) and is never shown to
// the host; any other directive goes to the host's job_control upcall, with
// the requesting proc, and the client gets the host's status
// (PMIX_ERR_NOT_SUPPORTED when the host has no job_control).
#include "common/runtime/log.h"
#include "server/cleanup/server_cleanup.h"
#include "server/state/peer_io.h"
#include "server/requests/peer_identity.h"
#include "server/requests/requests.h"

#include <memory>
#include <new>

namespace pmixpp::server {

namespace {

void reply_job_control(Server &server, PeerId id, uint32_t tag, pmix_status_t status, std::string reason = {})
{
    wire::JobControlReply reply;
    reply.status = status;
    reply.reason = std::move(reason);
    if (reply.reason.size() > wire::kMaxMessageLength) reply.reason.resize(wire::kMaxMessageLength);
    reply_to(server, id, tag, reply);
}

// The uid/gid the requester's files must have: the ones the host registered
// the client with (the handshake checked them against psec), else what the
// kernel says about the connection (a tool).
bool requester_owner(Server &server, const Peer &peer, cleanup::Owner *owner_p)
{
    uid_t uid = 0;
    gid_t gid = 0;
    if (!peer_user(server, peer, &uid, &gid)) return false;
    *owner_p = cleanup::Owner{uid, gid};
    return true;
}

void register_cleanup(Server &server, Peer &peer, uint32_t tag, const wire::JobControlRequest &request)
{
    cleanup::Owner owner;
    if (!requester_owner(server, peer, &owner)) {
        return reply_job_control(server, peer.id, tag, PMIX_ERR_NOT_SUPPORTED,
                                 "the server does not know the uid/gid of " + proc_name(peer.proc) +
                                     ", so it cannot tell which files are its own");
    }
    std::string why;
    const pmix_status_t rc = cleanup::register_request(server, peer.proc, owner, request.targets,
                                                       request.directives.data(), request.directives.size(), &why);
    if (rc != PMIX_SUCCESS) {
        runtime::log_trace("PMIX_MCA_pmix_server_verbose", "cleanup",
                           "refused a cleanup registration of " + describe(peer) + ": " + why);
    }
    reply_job_control(server, peer.id, tag, rc, rc == PMIX_SUCCESS ? std::string() : why);
}

// Owned by the host's call while it runs: it may read these until it calls back.
struct HostJobControl {
    pmix_proc_t requester{};
    wire::JobControlRequest request;
    JobControlDone done;
};

void host_job_control_done(pmix_status_t status, pmix_info_t * /*info*/, size_t /*ninfo*/, void *cbdata,
                           pmix_release_cbfunc_t release, void *release_cbdata)
{
    std::unique_ptr<HostJobControl> call(static_cast<HostJobControl *>(cbdata));
    if (release != nullptr) release(release_cbdata);
    if (call == nullptr) return;
    post_to_server([done = std::move(call->done), status](Server &) { done(status); });
}

}  // namespace

void start_job_control(Server &server, const pmix_proc_t &requester, wire::JobControlRequest request,
                       JobControlDone done)
{
    const auto upcall = server.host.slots().job_control;
    if (upcall == nullptr) return done(PMIX_ERR_NOT_SUPPORTED);
    auto *call = new (std::nothrow) HostJobControl{requester, std::move(request), done};
    if (call == nullptr) return done(PMIX_ERR_NOMEM);
    const pmix_proc_t *targets = call->request.targets.empty() ? nullptr : call->request.targets.data();
    const pmix_status_t rc =
        upcall(&call->requester, targets, call->request.targets.size(), call->request.directives.data(),
               call->request.directives.size(), host_job_control_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    done(rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

void handle_job_control(Server &server, Peer &peer, uint32_t tag, wire::JobControlRequest &request)
{
    if (cleanup::is_cleanup_request(request.directives.data(), request.directives.size())) {
        return register_cleanup(server, peer, tag, request);
    }
    const PeerId id = peer.id;
    start_job_control(server, peer.proc, std::move(request), [id, tag](pmix_status_t status) {
        if (Server *now = current()) reply_job_control(*now, id, tag, status);
    });
}

}  // namespace pmixpp::server
