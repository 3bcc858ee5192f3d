// PMIx_Publish, PMIx_Lookup, PMIx_Unpublish: the data lives with the host
// (its publish / lookup / unpublish upcalls decide ranges, persistence and
// waiting). The requester's PMIX_USERID / PMIX_GRPID come with the info. Without the upcall the client hears PMIX_ERR_NOT_SUPPORTED. What
// the host is handed (the info, the keys) stays valid until it calls back.
#include "server/state/peer_io.h"
#include "server/host/host_module.h"
#include "server/requests/peer_identity.h"
#include "server/requests/requests.h"

#include <functional>
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
    LookupResponder respond;
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
    post_to_server([respond = std::move(call->respond), reply](Server &) { respond(*reply); });
}

}  // namespace

void start_publish(Server &server, const pmix_proc_t &requester, wire::PublishRequest request, StatusResponder respond)
{
    const auto upcall = server.host.slots().publish;
    if (upcall == nullptr) return respond_status<wire::StatusReply>(respond, PMIX_ERR_NOT_SUPPORTED);
    auto held = std::make_shared<wire::PublishRequest>(std::move(request));
    host::start_op(
        [upcall, held, requester](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            return upcall(&requester, held->info.data(), held->info.size(), cbfunc, cbdata);
        },
        [respond, held](pmix_status_t status) { respond_status<wire::StatusReply>(respond, status); });
}

void start_lookup(Server &server, const pmix_proc_t &requester, wire::LookupRequest request, LookupResponder respond)
{
    const auto upcall = server.host.slots().lookup;
    wire::LookupReply refused;
    refused.status = PMIX_ERR_NOT_SUPPORTED;
    if (upcall == nullptr) return respond(refused);
    auto *call = new (std::nothrow)
        HostLookup{requester, KeyList(std::move(request.keys)), std::move(request.directives), respond};
    refused.status = PMIX_ERR_NOMEM;
    if (call == nullptr) return respond(refused);
    const pmix_status_t rc = upcall(&call->requester, call->keys.data(), call->directives.data(),
                                    call->directives.size(), host_lookup_done, call);
    if (rc == PMIX_SUCCESS) return;
    delete call;
    refused.status = rc == PMIX_OPERATION_SUCCEEDED ? PMIX_ERR_NOT_FOUND : rc;
    respond(refused);
}

void start_unpublish(Server &server, const pmix_proc_t &requester, wire::UnpublishRequest request,
                     StatusResponder respond)
{
    const auto upcall = server.host.slots().unpublish;
    if (upcall == nullptr) return respond_status<wire::StatusReply>(respond, PMIX_ERR_NOT_SUPPORTED);
    struct Held {
        KeyList keys;
        wire::InfoArray directives;
    };
    auto held = std::make_shared<Held>(Held{KeyList(std::move(request.keys)), std::move(request.directives)});
    host::start_op(
        [upcall, held, requester](pmix_op_cbfunc_t cbfunc, void *cbdata) {
            char **keys = held->keys.keys.empty() ? nullptr : held->keys.data();
            return upcall(&requester, keys, held->directives.data(), held->directives.size(), cbfunc, cbdata);
        },
        [respond, held](pmix_status_t status) { respond_status<wire::StatusReply>(respond, status); });
}

void handle_publish(Server &server, Peer &peer, uint32_t tag, wire::PublishRequest &request)
{
    const auto respond = answer_peer<wire::StatusReply>(peer.id, tag);
    const pmix_status_t rc = append_peer_user(server, peer, request.info);
    if (rc != PMIX_SUCCESS) return respond_status<wire::StatusReply>(respond, rc);
    start_publish(server, peer.proc, std::move(request), respond);
}

void handle_lookup(Server &server, Peer &peer, uint32_t tag, wire::LookupRequest &request)
{
    const auto respond = answer_peer<wire::LookupReply>(peer.id, tag);
    wire::LookupReply refused;
    refused.status = append_peer_user(server, peer, request.directives);
    if (refused.status != PMIX_SUCCESS) return respond(refused);
    start_lookup(server, peer.proc, std::move(request), respond);
}

void handle_unpublish(Server &server, Peer &peer, uint32_t tag, wire::UnpublishRequest &request)
{
    const auto respond = answer_peer<wire::StatusReply>(peer.id, tag);
    const pmix_status_t rc = append_peer_user(server, peer, request.directives);
    if (rc != PMIX_SUCCESS) return respond_status<wire::StatusReply>(respond, rc);
    start_unpublish(server, peer.proc, std::move(request), respond);
}

}  // namespace pmixpp::server
