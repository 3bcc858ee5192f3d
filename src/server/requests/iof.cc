// PMIx_IOF_pull / _deregister / _push from clients and tools. A pull is
// registered here (server/iof/) and told to the host's iof_pull, when it
// has one, so that a host which routes output by demand starts sending it;
// the reply (with the id) waits for the host's answer, and the pull sees
// output, cached output first, only after that. A deregistration is told
// to the host as OpenPMIx does: iof_pull with no procs and PMIX_IOF_STOP.
// Stdin goes to the host's push_stdin with the pushing peer as source; the
// end of input adds PMIX_IOF_COMPLETE to its directives.
#include <pmix_common.h>

#include <limits>
#include <memory>
#include <new>

#include "server/state/peer_io.h"
#include "server/state/info_read.h"
#include "server/iof/deliver.h"
#include "server/requests/requests.h"
#include "server/iof/iof_registry.h"

namespace pmixpp::server {

namespace {

struct PendingPull {
    PeerId owner = kNoPeer;
    uint64_t id = 0;
    std::size_t replay_limit = 0;
    IofPullResponder respond;
};

// PMIX_IOF_CACHE_SIZE caps how much of each stream's cached output a pull
// is sent; absent: everything the server kept.
std::size_t replay_limit(const wire::InfoArray &directives)
{
    const pmix_info_t *found = find_info(directives.data(), directives.size(), PMIX_IOF_CACHE_SIZE);
    uint32_t limit = 0;
    if (found == nullptr || read_u32(found->value, &limit) != PMIX_SUCCESS) {
        return std::numeric_limits<std::size_t>::max();
    }
    return limit;
}

void finish_pull(Server &server, const PendingPull &pending, pmix_status_t status)
{
    wire::IofPullReply reply{status, 0};
    iof::Pull *pull = server.part<iof::IofRegistry>().find(pending.owner, pending.id);
    if (pull == nullptr) return;  // its tool left meanwhile
    if (status != PMIX_SUCCESS) {
        server.part<iof::IofRegistry>().remove(pending.owner, pending.id);
        return pending.respond(reply);
    }
    pull->active = true;
    reply.id = pending.id;
    pending.respond(reply);
    iof::replay_cache(server, *pull, pending.replay_limit);
}

void host_pull_done(pmix_status_t status, void *cbdata)
{
    std::shared_ptr<PendingPull> pending(static_cast<PendingPull *>(cbdata));
    post_to_server([pending, status](Server &server) {
        finish_pull(server, *pending, status == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : status);
    });
}

void host_stop_done(pmix_status_t, void *) {}

struct PendingPush {
    IofPushResponder respond;
    wire::IofPushRequest request;  // what the host was handed, until it answers
    pmix_byte_object_t bo{};       // points into request.data
};

void answer_push(const IofPushResponder &respond, pmix_status_t status)
{
    wire::StatusReply reply;
    reply.status = status == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : status;
    respond(reply);
}

void host_push_done(pmix_status_t status, void *cbdata)
{
    std::shared_ptr<PendingPush> pending(static_cast<PendingPush *>(cbdata));
    post_to_server([pending, status](Server &) { answer_push(pending->respond, status); });
}

pmix_status_t add_complete_flag(wire::InfoArray &directives)
{
    wire::InfoArray with;
    pmix_status_t rc = with.allocate(directives.size() + 1);
    if (rc != PMIX_SUCCESS) return rc;
    for (std::size_t i = 0; i < directives.size(); ++i) PMIx_Info_xfer(&with[i], &directives[i]);
    bool yes = true;
    PMIX_INFO_LOAD(&with[directives.size()], PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
    directives = std::move(with);
    return PMIX_SUCCESS;
}

}  // namespace

void start_iof_pull(Server &server, PeerId owner, wire::IofPullRequest request, IofPullResponder respond)
{
    uint64_t id = 0;
    pmix_status_t rc = server.part<iof::IofRegistry>().add(owner, request.procs, request.channels, &id);
    wire::IofPullReply refused{rc, 0};
    if (rc != PMIX_SUCCESS) return respond(refused);
    std::unique_ptr<PendingPull> pending(new (std::nothrow)
                                             PendingPull{owner, id, replay_limit(request.directives), respond});
    if (pending == nullptr) {
        server.part<iof::IofRegistry>().remove(owner, id);
        refused.status = PMIX_ERR_NOMEM;
        return respond(refused);
    }
    const auto upcall = server.host.slots().iof_pull;
    if (upcall == nullptr) return finish_pull(server, *pending, PMIX_SUCCESS);
    rc = upcall(request.procs.data(), request.procs.size(), request.directives.data(), request.directives.size(),
                request.channels, host_pull_done, pending.get());
    if (rc == PMIX_SUCCESS) {
        pending.release();  // host_pull_done owns it now
        return;
    }
    finish_pull(server, *pending, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

void handle_iof_pull(Server &server, Peer &peer, uint32_t tag, wire::IofPullRequest &request)
{
    start_iof_pull(server, peer.id, std::move(request), answer_peer<wire::IofPullReply>(peer.id, tag));
}

pmix_status_t stop_iof_pull(Server &server, PeerId owner, wire::IofDeregisterRequest &request)
{
    const pmix_status_t rc = server.part<iof::IofRegistry>().remove(owner, request.id);
    if (rc == PMIX_SUCCESS && server.host.slots().iof_pull != nullptr) {
        wire::InfoArray &directives = request.directives;
        wire::InfoArray stop;
        if (stop.allocate(directives.size() + 1) == PMIX_SUCCESS) {
            for (std::size_t i = 0; i < directives.size(); ++i) PMIx_Info_xfer(&stop[i], &directives[i]);
            bool yes = true;
            PMIX_INFO_LOAD(&stop[directives.size()], PMIX_IOF_STOP, &yes, PMIX_BOOL);
            // What the host answers changes nothing here: the pull is gone.
            server.host.slots().iof_pull(nullptr, 0, stop.data(), stop.size(), 0, host_stop_done, nullptr);
        }
    }
    return rc;
}

void handle_iof_deregister(Server &server, Peer &peer, uint32_t tag, wire::IofDeregisterRequest &request)
{
    reply_status(server, peer.id, tag, stop_iof_pull(server, peer.id, request));
}

void start_iof_push(Server &server, const pmix_proc_t &source, wire::IofPushRequest request, IofPushResponder respond)
{
    const auto upcall = server.host.slots().push_stdin;
    if (upcall == nullptr) return answer_push(respond, PMIX_ERR_NOT_SUPPORTED);
    std::unique_ptr<PendingPush> pending(new (std::nothrow) PendingPush{respond, {}, {}});
    if (pending == nullptr) return answer_push(respond, PMIX_ERR_NOMEM);
    pending->request = std::move(request);
    wire::IofPushRequest &held = pending->request;
    if (held.eof) {
        const pmix_status_t rc = add_complete_flag(held.directives);
        if (rc != PMIX_SUCCESS) return answer_push(respond, rc);
    }
    pending->bo = pmix_byte_object_t{reinterpret_cast<char *>(held.data.data()), held.data.size()};
    const pmix_proc_t from = source;
    const pmix_status_t rc = upcall(&from, held.targets.data(), held.targets.size(), held.directives.data(),
                                    held.directives.size(), &pending->bo, host_push_done, pending.get());
    if (rc == PMIX_SUCCESS) {
        pending.release();  // host_push_done owns it now
        return;
    }
    answer_push(respond, rc);
}

void handle_iof_push(Server &server, Peer &peer, uint32_t tag, wire::IofPushRequest &request)
{
    const PeerId id = peer.id;
    start_iof_push(server, peer.proc, std::move(request), [id, tag](wire::StatusReply &reply) {
        if (Server *now = current()) reply_status(*now, id, tag, reply.status);
    });
}

}  // namespace pmixpp::server
