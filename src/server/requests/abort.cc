// PMIx_Abort: handed to the host's abort upcall; the client gets its answer
// when the host calls back (PMIX_ERR_NOT_SUPPORTED without an abort upcall).
#include "server/state/peer_io.h"
#include "server/requests/requests.h"

namespace pmixpp::server {

void handle_abort(Server &server, Peer &peer, uint32_t tag, wire::AbortRequest &request)
{
    const auto upcall = server.host.slots().abort;
    if (upcall == nullptr) return reply_status(server, peer.id, tag, PMIX_ERR_NOT_SUPPORTED);
    const ClientRecord *client = server.find_client(peer.proc);
    void *server_object = client == nullptr ? nullptr : client->server_object;
    const pmix_proc_t proc = peer.proc;
    const PeerId id = peer.id;
    // The host may keep procs and message until it calls back.
    auto held = std::make_shared<wire::AbortRequest>(std::move(request));
    host::start_op(
        [&](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            pmix_proc_t *procs = held->procs.empty() ? nullptr : held->procs.data();
            return upcall(&proc, server_object, held->status, held->message.c_str(), procs, held->procs.size(), cbfunc,
                          cbdata);
        },
        [id, tag, held](pmix_status_t status) {
            if (Server *now = current()) reply_status(*now, id, tag, status);
        });
}

}  // namespace pmixpp::server
