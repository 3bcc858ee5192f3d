// PMIx_Finalize: the host's client_finalized (if set) is told, and the
// client gets its answer once the host called back. From then on the
// connection closing is a normal exit, not an abnormal termination.
#include "server/state/peer_io.h"
#include "server/requests/requests.h"
#include "server/monitor/monitor_registry.h"

namespace pmixpp::server {

void handle_finalize(Server &server, Peer &peer, uint32_t tag, wire::FinalizeRequest &)
{
    peer.state = PeerState::finalized;
    ClientRecord *client = server.find_client(peer.proc);
    if (client != nullptr) client->finalized = true;
    peer.events.clear();
    server.part<monitor::MonitorRegistry>().stop_owner(peer.id);  // a finalized process is not expected to beat
    // A tool is not one of the host's clients: the host hears of it
    // through tool_connected only.
    const auto upcall = peer.tool ? nullptr : server.host.slots().client_finalized;
    if (upcall == nullptr) return reply_status(server, peer.id, tag, PMIX_SUCCESS);
    const pmix_proc_t proc = peer.proc;
    void *server_object = client == nullptr ? nullptr : client->server_object;
    const PeerId id = peer.id;
    host::start_op([&](pmix_op_cbfunc_t cbfunc, void *cbdata) { return upcall(&proc, server_object, cbfunc, cbdata); },
                   [id, tag](pmix_status_t status) {
                       if (Server *now = current()) reply_status(*now, id, tag, status);
                   });
}

}  // namespace pmixpp::server
