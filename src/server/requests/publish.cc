// PMIx_Publish, PMIx_Lookup, PMIx_Unpublish: the data lives with the host
// (its publish / lookup / unpublish upcalls decide ranges, persistence and
// waiting). The requester's PMIX_USERID / PMIX_GRPID come with the info. Without the upcall the client hears PMIX_ERR_NOT_SUPPORTED. What
// the host is handed (the info, the keys) stays valid until it calls back.
#include "server/state/peer_io.h"
#include "server/host/host_module.h"
#include "server/requests/peer_identity.h"
#include "server/requests/requests.h"

#include <memory>
#include <new>
#include <vector>

namespace pmixpp::server {

namespace {

// The keys as the NULL-terminated char** the upcalls take.
struct KeyList {
    std::vector<std::string> keys;
    std::vector<char *> pointers;

    explicit KeyList(std::vector<std::string> given) : keys(std::move(given))
    {
        for (std::string &key : keys) pointers.push_back(key.data());
        pointers.push_back(nullptr);
    }
    char **data() { return pointers.data(); }
};

struct HostLookup {
    pmix_proc_t requester{};
    KeyList keys;
    wire::InfoArray directives;
    PeerId peer = kNoPeer;
    uint32_t tag = 0;
};

void host_lookup_done(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void *cbdata)
{
    std::unique_ptr<HostLookup> call(static_cast<HostLookup *>(cbdata));
    if (call == nullptr) return;
    auto reply = std::make_shared<wire::LookupReply>();
    reply->status = status;
    if (status == PMIX_SUCCESS && ndata > 0) {
        const pmix_status_t rc = reply->data.assign_copy(data, ndata);
        if (rc != PMIX_SUCCESS) reply->status = rc;
    }
    post_to_server(
        [peer = call->peer, tag = call->tag, reply](Server &server) { reply_to(server, peer, tag, *reply); });
}

}  // namespace

void handle_publish(Server &server, Peer &peer, uint32_t tag, wire::PublishRequest &request)
{
    const auto upcall = server.host.slots().publish;
    if (upcall == nullptr) return reply_status(server, peer.id, tag, PMIX_ERR_NOT_SUPPORTED);
    const pmix_status_t rc = append_peer_user(server, peer, request.info);
    if (rc != PMIX_SUCCESS) return reply_status(server, peer.id, tag, rc);
    auto held = std::make_shared<wire::PublishRequest>(std::move(request));
    const pmix_proc_t requester = peer.proc;
    const PeerId id = peer.id;
    host::start_op(
        [upcall, held, requester](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            return upcall(&requester, held->info.data(), held->info.size(), cbfunc, cbdata);
        },
        [id, tag, held](pmix_status_t status) {
            if (Server *now = current()) reply_status(*now, id, tag, status);
        });
}

void handle_lookup(Server &server, Peer &peer, uint32_t tag, wire::LookupRequest &request)
{
    const auto upcall = server.host.slots().lookup;
    wire::LookupReply refused;
    refused.status = PMIX_ERR_NOT_SUPPORTED;
    if (upcall == nullptr) return reply_to(server, peer.id, tag, refused);
    refused.status = append_peer_user(server, peer, request.directives);
    if (refused.status != PMIX_SUCCESS) return reply_to(server, peer.id, tag, refused);
    auto *call = new (std::nothrow)
        HostLookup{peer.proc, KeyList(std::move(request.keys)), std::move(request.directives), peer.id, tag};
    refused.status = PMIX_ERR_NOMEM;
    if (call == nullptr) return reply_to(server, peer.id, tag, refused);
    const pmix_status_t rc = upcall(&call->requester, call->keys.data(), call->directives.data(),
                                    call->directives.size(), host_lookup_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    refused.status = rc == PMIX_OPERATION_SUCCEEDED ? PMIX_ERR_NOT_FOUND : rc;
    reply_to(server, peer.id, tag, refused);
}

void handle_unpublish(Server &server, Peer &peer, uint32_t tag, wire::UnpublishRequest &request)
{
    const auto upcall = server.host.slots().unpublish;
    if (upcall == nullptr) return reply_status(server, peer.id, tag, PMIX_ERR_NOT_SUPPORTED);
    const pmix_status_t rc = append_peer_user(server, peer, request.directives);
    if (rc != PMIX_SUCCESS) return reply_status(server, peer.id, tag, rc);
    struct Held {
        KeyList keys;
        wire::InfoArray directives;
    };
    auto held = std::make_shared<Held>(Held{KeyList(std::move(request.keys)), std::move(request.directives)});
    const pmix_proc_t requester = peer.proc;
    const PeerId id = peer.id;
    host::start_op(
        [upcall, held, requester](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            char **keys = held->keys.keys.empty() ? nullptr : held->keys.data();
            return upcall(&requester, keys, held->directives.data(), held->directives.size(), cbfunc, cbdata);
        },
        [id, tag, held](pmix_status_t status) {
            if (Server *now = current()) reply_status(*now, id, tag, status);
        });
}

}  // namespace pmixpp::server
