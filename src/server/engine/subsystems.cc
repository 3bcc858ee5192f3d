// The one table of who hears what, and in which order. Each line is a
// subsystem's subscription; the comment says why it stands where it does.
// A new subsystem (or a request that keeps state) adds its lines here and
// keeps its state in a part of its own (state/parts.h): nothing below the
// engine changes.
#include "server/engine/subsystems.h"

#include "server/cleanup/server_cleanup.h"
#include "server/engine/handshake.h"
#include "server/events/delivery.h"
#include "server/fork/fork_state.h"
#include "server/iof/iof_registry.h"
#include "server/iof/local_output.h"
#include "server/monitor/monitor_registry.h"
#include "server/pnet/job_state.h"
#include "server/pnet/pnet_server.h"
#include "server/pnet/setup_calls.h"
#include "server/rendezvous/server_files.h"
#include "server/requests/requests.h"
#include "server/sessiondirs/server_hooks.h"
#include "server/state/server.h"

#include <chrono>

namespace pmixpp::server {

namespace {

void subscribe_start(Hooks &hooks)
{
    // Dead servers' rendezvous files and directories go before ours are made.
    hooks.on_start("rendezvous reaping", [](Server &server, const pmix_info_t *, std::size_t) {
        rendezvous::reap_before_start(server.config);
        return PMIX_SUCCESS;
    });
    // The session directories (PMIX_TMPDIR unless the host gave one) exist
    // before any client can connect and ask for them.
    hooks.on_start("session directories", [](Server &server, const pmix_info_t info[], std::size_t ninfo) {
        sessiondirs::on_server_init(server, info, ninfo);
        return PMIX_SUCCESS;
    });
    // Whether the host's children's output is printed here by default.
    hooks.on_start("local output", [](Server &server, const pmix_info_t info[], std::size_t ninfo) {
        server.part<iof::LocalOutput>().configure(info, ninfo);
        return PMIX_SUCCESS;
    });
    // The rendezvous files name the listeners, so they come once those
    // listen; a tool that finds the file can connect at once.
    hooks.on_listening("rendezvous files", [](Server &server, const pmix_info_t info[], std::size_t ninfo) {
        return rendezvous::publish_server_files(server, info, ninfo);
    });
    // setup_fork may run from now on, also in a forked child: what it reads
    // of the server (environment, hostname, pnet modules) is published.
    hooks.on_listening("fork state", [](Server &server, const pmix_info_t *, std::size_t) {
        publish_fork_server(server);
        return PMIX_SUCCESS;
    });
}

void subscribe_peer_lost(Hooks &hooks)
{
    // First what the peer asked the server to do for it, now pointless.
    hooks.on_peer_lost("monitors", [](Server &server, const PeerLoss &loss) {
        server.part<monitor::MonitorRegistry>().stop_owner(loss.peer.id);  // nobody left to watch or alert
    });
    hooks.on_peer_lost("iof", [](Server &server, const PeerLoss &loss) {
        server.part<iof::IofRegistry>().remove_owner(loss.peer.id);  // its pulls end with it
    });
    hooks.on_peer_lost("events", [](Server &server, const PeerLoss &loss) {
        for (const auto &registration : loss.peer.events) host_events_removed(server, registration);
        loss.peer.events.clear();
    });
    hooks.on_peer_lost("fabrics", [](Server &server, const PeerLoss &loss) {
        fabric_peer_lost(server, loss.peer);  // the fabrics it registered end with it
    });
    // The arena's whole-job fences move to the server before the fences
    // below hear of the loss, so those fences fail like any other.
    hooks.on_peer_lost("fence arena", [](Server &server, const PeerLoss &loss) {
        if (loss.proc_ended && !loss.peer.tool) arena_peer_lost(server, loss.peer);
    });
    // The proc's registered cleanup (RFC0027) and the pnet components'
    // child cleanup run once the proc itself is gone, not for an old
    // connection of a proc that registered again.
    hooks.on_peer_lost("cleanup", [](Server &server, const PeerLoss &loss) {
        if (loss.proc_ended) cleanup::on_client_gone(server, loss.peer.proc);
    });
    hooks.on_peer_lost("pnet", [](Server &server, const PeerLoss &loss) {
        if (loss.proc_ended && !loss.peer.tool) pnet::on_child_ended(server, loss.peer.proc);
    });
    // Collectives last: each fails or completes without the peer.
    hooks.on_peer_lost("fences", [](Server &server, const PeerLoss &loss) { fence_peer_lost(server, loss.peer); });
    hooks.on_peer_lost("connects", [](Server &server, const PeerLoss &loss) { connect_peer_lost(server, loss.peer); });
    hooks.on_peer_lost("groups", [](Server &server, const PeerLoss &loss) { group_peer_lost(server, loss.peer); });
    hooks.on_peer_lost("invitations",
                       [](Server &server, const PeerLoss &loss) { invitation_peer_lost(server, loss.peer); });
}

void subscribe_namespaces(Hooks &hooks)
{
    hooks.on_namespace_registered(
        "session directories", [](Server &server, const std::string &nspace, const pmix_info_t info[],
                                  std::size_t ninfo) { sessiondirs::on_register_nspace(server, nspace, info, ninfo); });
    // setup_fork may run in a forked child from now on: what it reads of
    // the job is published before the host can fork.
    hooks.on_namespace_registered("fork state", [](Server &server, const std::string &nspace, const pmix_info_t *,
                                                   std::size_t) { publish_fork_job(server, nspace); });
    // How its output is printed here, if it is (PMIX_IOF_LOCAL_OUTPUT).
    hooks.on_namespace_registered(
        "local output", [](Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo) {
            server.part<iof::LocalOutput>().namespace_registered(nspace, info, ninfo);
        });
    // An arena only for a job whose ranks all run on this node.
    hooks.on_namespace_registered("fence arena", [](Server &server, const std::string &nspace, const pmix_info_t *,
                                                    std::size_t) { open_fence_arena(server, nspace); });
    // Last: its clients may all be registered already (register_client may
    // come first), and the hooks above add to the job's data.
    hooks.on_namespace_registered("job data", [](Server &server, const std::string &nspace, const pmix_info_t *,
                                                 std::size_t) { share_job_data_when_registered(server, nspace); });

    hooks.on_namespace_deregistered("fence arena", close_fence_arena);
    hooks.on_namespace_deregistered("local output", [](Server &server, const std::string &nspace) {
        server.part<iof::LocalOutput>().namespace_deregistered(nspace);
    });
    // The pnet components' child, application and job cleanups, then the
    // registered cleanups, then the directories those may have written in.
    hooks.on_namespace_deregistered("pnet", pnet::on_nspace_deregistered);
    hooks.on_namespace_deregistered("cleanup", cleanup::on_nspace_deregistered);
    hooks.on_namespace_deregistered("session directories", sessiondirs::on_deregister_nspace);
    // A forked child of the host no longer finds the job.
    hooks.on_namespace_deregistered("fork state",
                                    [](Server &, const std::string &nspace) { fork_state::forget_job(nspace); });
}

void subscribe_clients(Hooks &hooks)
{
    hooks.on_client_registered("session directories", [](Server &server, const pmix_proc_t &proc) {
        sessiondirs::on_register_client(server, std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN)),
                                        proc.rank);
    });
    // After its directories are named: they are part of the job's data.
    hooks.on_client_registered("job data", [](Server &server, const pmix_proc_t &proc) {
        share_job_data_when_registered(server, std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN)));
    });
    // Once, if its connection did not end first; then its cleanups, before
    // its directory goes.
    hooks.on_client_deregistered("pnet", pnet::on_child_ended);
    hooks.on_client_deregistered("cleanup", cleanup::on_client_deregistered);
    hooks.on_client_deregistered("session directories", [](Server &server, const pmix_proc_t &proc) {
        sessiondirs::on_deregister_client(server, std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN)),
                                          proc.rank);
    });
    // A client whose library does not make its own PMIX_PROCDIR gets it
    // made before its welcome.
    hooks.on_client_connected("session directories", sessiondirs::on_client_connected);
}

void subscribe_finalize(Hooks &hooks)
{
    // setup_fork answers PMIX_ERR_INIT from now on, in any thread.
    hooks.on_finalize_connected("fork state", [](Server &) { fork_state::clear(); });
    // While the peers are connected: every collective in progress fails
    // with an answer each participant still receives.
    hooks.on_finalize_connected("fences", [](Server &server) { fail_all_fences(server, PMIX_ERR_LOST_CONNECTION); });
    // Releases the arena waiters and removes the arena files.
    hooks.on_finalize_connected("fence arena", close_all_fence_arenas);
    hooks.on_finalize_connected("connects",
                                [](Server &server) { fail_all_connects(server, PMIX_ERR_LOST_CONNECTION); });
    hooks.on_finalize_connected("groups", [](Server &server) { fail_all_groups(server, PMIX_ERR_LOST_CONNECTION); });
    hooks.on_finalize_connected("invitations",
                                [](Server &server) { fail_all_invitations(server, PMIX_ERR_LOST_CONNECTION); });
    // Their timers, before the engine goes.
    hooks.on_finalize_connected("monitors", [](Server &server) { server.part<monitor::MonitorRegistry>().stop_all(); });
    // The job's last lines reach the terminal before the host exits.
    hooks.on_finalize_connected("local output",
                                [](Server &server) { server.part<iof::LocalOutput>().flush(std::chrono::seconds(2)); });
    // Before the listeners close: no tool finds a file naming a dead port.
    hooks.on_finalize_connected("rendezvous files", [](Server &) { rendezvous::withdraw_server_files(); });

    // After the peers closed (a server out of descriptors gets some back to
    // walk and remove its trees): the host's pending setup callbacks, the
    // fabrics' ends, the components' cleanups of every job, the registered
    // cleanups, and last the directories all of those may have used.
    hooks.on_finalize_disconnected("pnet calls", pnet::fail_pending_calls);
    hooks.on_finalize_disconnected("fabrics", end_all_fabrics);
    hooks.on_finalize_disconnected("pnet", pnet::on_finalize);
    hooks.on_finalize_disconnected("cleanup", cleanup::on_finalize);
    hooks.on_finalize_disconnected("session directories", sessiondirs::on_finalize);
}

}  // namespace

void subscribe_subsystems(Hooks &hooks)
{
    subscribe_start(hooks);
    subscribe_peer_lost(hooks);
    subscribe_namespaces(hooks);
    subscribe_clients(hooks);
    subscribe_finalize(hooks);
}

}  // namespace pmixpp::server
