#include "server/engine/peer_lifecycle.h"

#include "server/events/delivery.h"
#include "common/runtime/log.h"
#include "common/values/value_ops.h"
#include "server/engine/connections.h"
#include "server/engine/lost_report.h"
#include "server/engine/tool_peers.h"

namespace pmixpp::server {

namespace {

wire::Event event_about(pmix_status_t status, const pmix_proc_t &proc, pmix_data_range_t range)
{
    wire::Event event;
    event.status = status;
    event.source = proc;
    event.range = range;
    if (event.info.allocate(1) == PMIX_SUCCESS) {
        values::info_load(&event.info[0], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    }
    return event;
}

// The host hears that the connection is gone, PMIX_ERR_LOST_CONNECTION, as
// OpenPMIx 4.2 tells it: once, and batched with the other losses of a
// moment (lost_report.h; the host decides what the job does, and Slurm's
// catch-all handler logs an error line and kills the step for each event).
// The termination
// itself, PMIX_ERR_PROC_TERM_WO_SYNC, goes only to handlers that registered
// for that code by name, the host's and the peers': a catch-all handler is
// how MPI libraries field errors, and Open MPI's aborts the rank on any
// error event (exit code -200 & 255 = 56), so an unasked-for event would
// turn mpirun's "rank 1 exited on signal 11" into an abort of rank 0 now
// and then.
void announce_termination(Server &server, const pmix_proc_t &proc)
{
    const wire::Event terminated = event_about(PMIX_ERR_PROC_TERM_WO_SYNC, proc, PMIX_RANGE_NAMESPACE);
    deliver_to_clients_naming(server, terminated, kNoPeer);
    deliver_to_host_handlers_naming(server, terminated);
    report_lost_to_host(server, proc);
}

// A proc that is gone without committing never will: whoever waits for its
// data (a Get, a dmodex request) is answered now, and later requests at
// once (get.cc, dmodex.cc), instead of waiting forever.
void mark_gone(Server &server, const pmix_proc_t &proc)
{
    Namespace *ns = server.find_namespace(proc.nspace);
    if (ns == nullptr) return;
    ns->gone.insert(proc.rank);
    if (ns->committed.count(proc.rank) == 0) {
        server.waiters.fail_proc(ns->name, proc.rank, PMIX_ERR_NOT_FOUND);
    }
}

}  // namespace

void peer_gone(Server &server, Peer &peer, pmix_status_t reason)
{
    if (peer.state == PeerState::handshaking) return;
    // Its parked gets have nobody to answer to.
    server.waiters.fail_owner(peer.id, PMIX_ERR_LOST_CONNECTION);
    PeerLoss loss{peer, peer.tool, peer.state == PeerState::finalized};
    if (!peer.tool) {
        ClientRecord *client = server.find_client(peer.proc);
        // A record connected elsewhere belongs to a later registration of
        // the same proc: this old connection says nothing about it.
        loss.proc_ended = client == nullptr || client->peer == peer.id;
        if (client != nullptr && loss.proc_ended) client->peer = kNoPeer;
        if (loss.proc_ended) mark_gone(server, peer.proc);
    }
    server.hooks.peer_lost(server, loss);             // engine/subsystems.cc: who hears, in which order
    if (peer.tool) return forget_tool(server, peer);  // a tool is forgotten, no job hears of it
    if (loss.finalized) return;
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
