// PMIx_Connect / PMIx_Disconnect: a local collective like a fence. Every
// local participant named in the proc set (rank PMIX_RANK_WILDCARD: every
// local proc of that namespace) must ask with the same set. When every
// participant lives on this node the collective completes here once all have
// asked, without the host, as OpenPMIx 4.2 does (Open MPI's mpirun is not
// asked for a spawn's connect on one node; python3-pmix's host cannot
// answer the upcall). Otherwise, once every local participant asked, the
// host's connect (disconnect) upcall gets the set and the first arrival's
// info, once, and its status is everyone's answer. What crosses nodes is the
// host's business.
//
// A collective that needs the host when the host has no such upcall is
// answered PMIX_ERR_NOT_SUPPORTED at once: nobody would be served by
// waiting for the others first. PMIX_TIMEOUT bounds the whole collective,
// the host's part included, as for a fence. A participant whose connection
// ends before the host was called fails the collective for the others with
// PMIX_ERR_LOST_CONNECTION (as a fence does); after that it goes on without
// it. Connect and disconnect of the same set are different collectives.
#include "common/runtime/log.h"
#include "server/state/peer_io.h"
#include "server/host/host_module.h"
#include "server/requests/participants.h"
#include "server/requests/requests.h"
#include "server/requests/connect_tracker.h"

#include <memory>
#include <new>

namespace pmixpp::server {

namespace {

const char *connect_api_name(bool disconnect)
{
    return disconnect ? "PMIx_Disconnect" : "PMIx_Connect";
}

void finish_connect(Server &server, uint64_t id, pmix_status_t status)
{
    ConnectCollective *collective = server.part<ConnectTracker>().find(id);
    if (collective == nullptr) return;  // timed out or failed already
    collective->timer.cancel();
    const std::vector<Arrival> arrivals = std::move(collective->arrived);
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       std::string(collective->disconnect ? "disconnect" : "connect") + " of " +
                           std::to_string(collective->procs.size()) + " procs ends: " + PMIx_Error_string(status));
    server.part<ConnectTracker>().erase(id);
    for (const Arrival &arrival : arrivals) reply_status(server, arrival.peer, arrival.tag, status);
}

// What the host is handed, owned by the call: the host may read it until it
// calls back, which may be after the collective timed out and is gone.
struct ConnectUpcall {
    std::vector<pmix_proc_t> procs;
    wire::InfoArray info;
};

void call_host(Server &server, ConnectCollective &collective)
{
    const auto &slots = server.host.slots();
    const auto upcall = collective.disconnect ? slots.disconnect : slots.connect;
    std::shared_ptr<ConnectUpcall> held;
    try {
        held = std::make_shared<ConnectUpcall>(
            ConnectUpcall{std::move(collective.procs), std::move(collective.directives)});
    } catch (const std::bad_alloc &) {
        return finish_connect(server, collective.id, PMIX_ERR_NOMEM);
    }
    collective.host_called = true;
    const uint64_t id = collective.id;
    // The collective may be gone once start_op returns (an upcall that
    // answered at once completed it).
    host::start_op(
        [upcall, held](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            return upcall(held->procs.data(), held->procs.size(), held->info.data(), held->info.size(), cbfunc, cbdata);
        },
        [id, held](pmix_status_t status) {
            if (Server *now = current()) finish_connect(*now, id, status);
        });
}

// The refusals that need no collective; PMIX_SUCCESS lets the caller join.
pmix_status_t check_caller(Server &server, const Peer &peer, bool disconnect, const std::vector<pmix_proc_t> &procs,
                           const Participants &participants)
{
    const auto &slots = server.host.slots();
    const bool host_can = (disconnect ? slots.disconnect : slots.connect) != nullptr;
    if (!host_can && !participants.all_local) return PMIX_ERR_NOT_SUPPORTED;
    if (procs.empty() || participants.local.count(proc_name(peer.proc)) == 0) {
        runtime::log_warning("server", describe(peer) + " called " + connect_api_name(disconnect) +
                                           " with a proc set that does not include itself: refused with "
                                           "PMIX_ERR_BAD_PARAM (name the caller, or its namespace with "
                                           "PMIX_RANK_WILDCARD, among the procs)");
        return PMIX_ERR_BAD_PARAM;
    }
    // A participant whose connection already ended can never arrive: the
    // same answer as when it leaves during the collective.
    if (participants.any_gone) return PMIX_ERR_LOST_CONNECTION;
    return PMIX_SUCCESS;
}

void handle_membership(Server &server, Peer &peer, uint32_t tag, bool disconnect, std::vector<pmix_proc_t> given,
                       wire::InfoArray &info)
{
    std::vector<pmix_proc_t> procs = normalised(std::move(given));
    Participants participants = local_participants(server, procs);
    const pmix_status_t refused = check_caller(server, peer, disconnect, procs, participants);
    if (refused != PMIX_SUCCESS) return reply_status(server, peer.id, tag, refused);
    const std::string signature = std::string(connect_api_name(disconnect)) + ":" + signature_of(procs);
    bool created = false;
    ConnectCollective &collective = join(server.part<ConnectTracker>(), signature, peer, tag, &created);
    if (created) {
        collective.disconnect = disconnect;
        collective.all_local = participants.all_local;
        collective.procs = std::move(procs);
        collective.expected = std::move(participants.local);
        collective.directives = std::move(info);
        arm_timeout(server, collective, [](Server &now, uint64_t id) { finish_connect(now, id, PMIX_ERR_TIMEOUT); });
    }
    if (!collective.complete()) return;
    if (collective.all_local) return finish_connect(server, collective.id, PMIX_SUCCESS);
    call_host(server, collective);
}

}  // namespace

void handle_connect(Server &server, Peer &peer, uint32_t tag, wire::ConnectRequest &request)
{
    handle_membership(server, peer, tag, false, std::move(request.procs), request.info);
}

void handle_disconnect(Server &server, Peer &peer, uint32_t tag, wire::DisconnectRequest &request)
{
    handle_membership(server, peer, tag, true, std::move(request.procs), request.info);
}

void connect_peer_lost(Server &server, const Peer &peer)
{
    leave_all(server.part<ConnectTracker>(), peer,
              [&server](uint64_t id) { finish_connect(server, id, PMIX_ERR_LOST_CONNECTION); });
}

void fail_all_connects(Server &server, pmix_status_t status)
{
    for (uint64_t id : server.part<ConnectTracker>().ids()) finish_connect(server, id, status);
}

}  // namespace pmixpp::server
