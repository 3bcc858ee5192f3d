#include "server/core/peer_lifecycle.h"

#include "common/runtime/log.h"
#include "common/values/value_ops.h"
#include "server/core/connections.h"
#include "server/requests/requests.h"

namespace pmixpp::server {

namespace {

void announce_termination(Server &server, const pmix_proc_t &proc)
{
    wire::Event event;
    event.status = PMIX_ERR_PROC_TERM_WO_SYNC;
    event.source = proc;
    event.range = PMIX_RANGE_NAMESPACE;
    if (event.info.allocate(1) == PMIX_SUCCESS) {
        values::info_load(&event.info[0], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    }
    deliver_local_event(server, event, kNoPeer);
}

}  // namespace

void peer_gone(Server &server, Peer &peer, pmix_status_t reason)
{
    if (peer.state == PeerState::handshaking) return;
    if (ClientRecord *client = server.find_client(peer.proc); client != nullptr &&
                                                               client->peer == peer.id) {
        client->peer = kNoPeer;
    }
    fence_peer_lost(server, peer);
    if (peer.state == PeerState::finalized) return;
    runtime::log_trace("PMIX_MCA_pmix_server_verbose", "server",
                       describe(peer) + " went away without finalizing: " + PMIx_Error_string(reason));
    announce_termination(server, peer.proc);
}

void disconnect_clients(Server &server, const std::string &nspace)
{
    for (auto &[id, peer] : server.peers) {
        if (peer->state != PeerState::handshaking && nspace == peer->proc.nspace) {
            // Deregistered on purpose: not an abnormal termination.
            peer->state = PeerState::finalized;
            peer->connection->close(PMIX_ERR_LOST_CONNECTION, "namespace deregistered");
        }
    }
}

void disconnect_client(Server &server, const pmix_proc_t &proc)
{
    for (auto &[id, peer] : server.peers) {
        if (peer->state != PeerState::handshaking && same_proc(peer->proc, proc)) {
            peer->state = PeerState::finalized;
            peer->connection->close(PMIX_ERR_LOST_CONNECTION, "client deregistered");
        }
    }
}

}  // namespace pmixpp::server
