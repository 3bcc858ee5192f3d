// The shape shared by the client calls that the server relays to its host
// (spawn, allocation, session control, log): start the request, then either
// wait for it on the caller's thread or hand the answer to a callback.
#ifndef PMIXPP_CLIENT_CORE_HOST_CALL_H
#define PMIXPP_CLIENT_CORE_HOST_CALL_H

#include <functional>
#include <memory>
#include <new>

#include <pmix_common.h>

#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/runtime/progress_engine.h"

namespace pmixpp::client {

// The connected session, or PMIX_ERR_INIT (a host asking its own server
// would be asking itself: it owns these decisions).
inline pmix_status_t connected_session(std::shared_ptr<Session> *session_p)
{
    *session_p = current_session();
    return *session_p ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

// Sends request; `done` gets the decoded Reply (or the transport/decoding
// status with a default Reply) on the progress thread.
template <typename Reply, typename Request>
pmix_status_t send_for_reply(const std::shared_ptr<Session> &session, const Request &request,
                             std::chrono::milliseconds timeout,
                             std::function<void(pmix_status_t, std::shared_ptr<Reply>)> done)
{
    return send_message(session, request, timeout, [done](pmix_status_t st, const wire::Frame *frame) {
        auto reply = std::make_shared<Reply>();
        const pmix_status_t status = read_reply(st, frame, reply.get());
        done(status, reply);
    });
}

// Runs start(done) and waits for done on this thread; the reply is left in
// *reply_p (never on the progress thread: it would wait for itself).
template <typename Reply>
pmix_status_t
wait_for_reply(const std::function<pmix_status_t(std::function<void(pmix_status_t, std::shared_ptr<Reply>)>)> &start,
               std::shared_ptr<Reply> *reply_p)
{
    if (runtime::ProgressEngine::process().on_progress_thread()) return PMIX_ERR_WOULD_BLOCK;
    using ReplyLatch = runtime::Latch<std::shared_ptr<Reply>>;
    auto latch = std::make_shared<ReplyLatch>();
    const pmix_status_t rc =
        start([latch](pmix_status_t st, std::shared_ptr<Reply> reply) { latch->complete(st, std::move(reply)); });
    if (rc != PMIX_SUCCESS) return rc;
    const pmix_status_t status = latch->wait();
    *reply_p = latch->payload();
    return status;
}

// The completion of a request answered by an InfoReply.
using InfoDone = std::function<void(pmix_status_t, std::shared_ptr<wire::InfoReply>)>;

// An InfoDone that hands the reply's info to a caller's pmix_info_cbfunc_t;
// the reply lives until the caller calls the release function.
inline InfoDone info_callback(pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return [cbfunc, cbdata](pmix_status_t st, std::shared_ptr<wire::InfoReply> reply) {
        if (cbfunc == nullptr) return;
        auto *held = new (std::nothrow) std::shared_ptr<wire::InfoReply>(reply);
        if (held == nullptr) return cbfunc(st, nullptr, 0, cbdata, nullptr, nullptr);
        cbfunc(
            st, reply ? reply->info.data() : nullptr, reply ? reply->info.size() : 0, cbdata,
            [](void *p) { delete static_cast<std::shared_ptr<wire::InfoReply> *>(p); }, held);
    };
}

}  // namespace pmixpp::client

#endif
