// PMIx_Fabric_register / _update / _deregister (and their _nb forms). A
// client or tool asks its server; the host process asks its own server
// state (server/engine/self_access.h). Either way a pnet component that knows
// a fabric answers, else the host's fabric upcall, else nobody
// (PMIX_ERR_NOT_AVAILABLE). The answer fills the caller's pmix_fabric_t:
// index and name (the registration the server keeps) and info (its
// description), all from libc's allocator, released by deregister.
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "client/core/host_call.h"
#include "client/core/requests.h"
#include "client/core/host_mode.h"
#include "server/engine/self_access.h"

using namespace pmixpp;

namespace {

using Reply = std::shared_ptr<wire::FabricReply>;
using FabricDone = std::function<void(pmix_status_t, Reply)>;
using StatusDone = std::function<void(pmix_status_t, std::shared_ptr<wire::StatusReply>)>;

// Where a call goes: the server this process is a client of, or (no
// session) the server this process runs. PMIX_ERR_INIT: neither.
pmix_status_t session_or_host(std::shared_ptr<client::Session> *session_p)
{
    *session_p = client::current_session();
    return *session_p || client::host_mode() ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

// Like send_for_reply, but a server that predates these commands answers
// with a status-only PMIX_ERR_NOT_SUPPORTED: that status is the answer.
template <typename Request>
pmix_status_t ask_server(const std::shared_ptr<client::Session> &session, const Request &request,
                         std::chrono::milliseconds timeout, FabricDone done)
{
    return client::send_message(session, request, timeout, [done](pmix_status_t st, const wire::Frame *frame) {
        auto reply = std::make_shared<wire::FabricReply>();
        pmix_status_t status = client::read_reply(st, frame, reply.get());
        wire::StatusReply refusal;
        if (st == PMIX_SUCCESS && frame != nullptr && status != reply->status &&
            wire::decode_payload(frame->payload, &refusal) == PMIX_SUCCESS) {
            status = refusal.status;
        }
        done(status, reply);
    });
}

// Self-access hands a reply by reference; the rest wants it shared.
template <typename ReplyType, typename Done> std::function<void(ReplyType &)> share_reply(Done done)
{
    return [done = std::move(done)](ReplyType &reply) {
        auto shared = std::make_shared<ReplyType>(std::move(reply));
        done(shared->status, shared);
    };
}

void release_fabric(pmix_fabric_t *fabric)
{
    if (fabric->info != nullptr) PMIX_INFO_FREE(fabric->info, fabric->ninfo);
    fabric->info = nullptr;
    fabric->ninfo = 0;
    std::free(fabric->name);
    fabric->name = nullptr;
}

// The server's answer into the caller's struct; `replace` frees what an
// earlier answer left there (an update; a registration may find garbage).
pmix_status_t fill_fabric(pmix_fabric_t *fabric, wire::FabricReply &reply, bool replace)
{
    char *name = strdup(reply.name.c_str());
    if (name == nullptr) return PMIX_ERR_NOMEM;
    if (replace) release_fabric(fabric);
    fabric->name = name;
    fabric->index = static_cast<size_t>(reply.index);
    fabric->info = reply.info.release(&fabric->ninfo);
    return PMIX_SUCCESS;
}

// done, after the answer was written into *fabric.
FabricDone filling(pmix_fabric_t *fabric, bool replace, std::function<void(pmix_status_t)> done)
{
    return [fabric, replace, done = std::move(done)](pmix_status_t status, Reply reply) {
        if (status == PMIX_SUCCESS && reply) status = fill_fabric(fabric, *reply, replace);
        done(status);
    };
}

pmix_status_t start_register(pmix_fabric_t *fabric, const pmix_info_t directives[], size_t ndirs,
                             std::function<void(pmix_status_t)> done)
{
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = session_or_host(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (fabric == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    FabricDone answer = filling(fabric, false, std::move(done));
    if (!session) return server::server_fabric_register_nb(directives, ndirs, share_reply<wire::FabricReply>(answer));
    // No server: no component and no host to know a fabric.
    if (session->singleton) return PMIX_ERR_NOT_AVAILABLE;
    wire::FabricRegisterRequest request;
    rc = request.directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    return ask_server(session, request, client::timeout_of(directives, ndirs, client::kServerTimeoutMargin),
                      std::move(answer));
}

pmix_status_t start_update(pmix_fabric_t *fabric, std::function<void(pmix_status_t)> done)
{
    std::shared_ptr<client::Session> session;
    const pmix_status_t rc = session_or_host(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (fabric == nullptr) return PMIX_ERR_BAD_PARAM;
    FabricDone answer = filling(fabric, true, std::move(done));
    if (!session) return server::server_fabric_update_nb(fabric->index, share_reply<wire::FabricReply>(answer));
    if (session->singleton) return PMIX_ERR_NOT_FOUND;  // nothing was ever registered
    return ask_server(session, wire::FabricUpdateRequest{fabric->index}, std::chrono::milliseconds{0},
                      std::move(answer));
}

// The caller's copy goes whatever the server says: it is theirs to release.
pmix_status_t start_deregister(pmix_fabric_t *fabric, std::function<void(pmix_status_t)> done)
{
    std::shared_ptr<client::Session> session;
    const pmix_status_t rc = session_or_host(&session);
    if (rc != PMIX_SUCCESS) return rc;
    if (fabric == nullptr) return PMIX_ERR_BAD_PARAM;
    StatusDone answer = [fabric, done = std::move(done)](pmix_status_t status, std::shared_ptr<wire::StatusReply>) {
        release_fabric(fabric);
        done(status);
    };
    if (!session) return server::server_fabric_deregister_nb(fabric->index, share_reply<wire::StatusReply>(answer));
    if (session->singleton) return PMIX_ERR_NOT_FOUND;
    return client::send_message(session, wire::FabricDeregisterRequest{fabric->index}, std::chrono::milliseconds{0},
                                [answer](pmix_status_t st, const wire::Frame *frame) {
                                    wire::StatusReply reply;
                                    answer(client::read_reply(st, frame, &reply), nullptr);
                                });
}

// Runs start(done) and waits on this thread; PMIX_OPERATION_SUCCEEDED
// counts as success.
pmix_status_t wait_for(const std::function<pmix_status_t(std::function<void(pmix_status_t)>)> &start)
{
    std::shared_ptr<wire::StatusReply> unused;
    const pmix_status_t rc = client::wait_for_reply<wire::StatusReply>(
        [&](std::function<void(pmix_status_t, std::shared_ptr<wire::StatusReply>)> done) {
            return start([done](pmix_status_t status) { done(status, nullptr); });
        },
        &unused);
    return rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc;
}

std::function<void(pmix_status_t)> to_callback(pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return [cbfunc, cbdata](pmix_status_t status) {
        if (cbfunc != nullptr) cbfunc(status, cbdata);
    };
}

template <typename Start> pmix_status_t guarded(Start start)
{
    try {
        return start();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

pmix_status_t PMIx_Fabric_register(pmix_fabric_t *fabric, const pmix_info_t directives[], size_t ndirs)
{
    return guarded(
        [&] { return wait_for([&](auto done) { return start_register(fabric, directives, ndirs, done); }); });
}

pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t *fabric, const pmix_info_t directives[], size_t ndirs,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return guarded([&] { return start_register(fabric, directives, ndirs, to_callback(cbfunc, cbdata)); });
}

pmix_status_t PMIx_Fabric_update(pmix_fabric_t *fabric)
{
    return guarded([&] { return wait_for([&](auto done) { return start_update(fabric, done); }); });
}

pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return guarded([&] { return start_update(fabric, to_callback(cbfunc, cbdata)); });
}

pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t *fabric)
{
    return guarded([&] { return wait_for([&](auto done) { return start_deregister(fabric, done); }); });
}

pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return guarded([&] { return start_deregister(fabric, to_callback(cbfunc, cbdata)); });
}
