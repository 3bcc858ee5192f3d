// Talking to the server once connected: requests with a reply callback, the
// handling of incoming frames and of the connection's end.
#ifndef PMIXPP_CLIENT_CORE_REQUESTS_H
#define PMIXPP_CLIENT_CORE_REQUESTS_H

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <pmix_common.h>

#include "client/core/session.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

using ReplyHandler = std::function<void(pmix_status_t status, const wire::Frame *reply)>;

// Hands the connected fd to a new ServerLink (a wire::Connection) on the
// progress thread; it becomes the active link when there is none. With
// `openpmix`, the server speaks OpenPMIx's protocol and the link
// translates every request and answer.
pmix_status_t attach_connection(const std::shared_ptr<Session> &session, int fd, const pmix_proc_t &server,
                                std::shared_ptr<ServerLink> *link_p = nullptr,
                                std::shared_ptr<OpenPmixServerDialect> openpmix = nullptr);

// Makes link the one requests go to. Progress thread.
void make_active(Session &session, const std::shared_ptr<ServerLink> &link);

// Closes one link on purpose (no LOST_CONNECTION event) and forgets it;
// when it was the active one, the next open link takes over. Progress thread.
void close_link(Session &session, const std::shared_ptr<ServerLink> &link);

// Closes every link (no LOST_CONNECTION event: session->finalizing is set)
// and fails what is still pending. Progress thread.
void detach_connection(Session &session);

// "nspace.rank" for messages.
std::string proc_text(const pmix_proc_t &proc);

// Sends an encoded REQUEST payload; `handler` then runs once on the progress
// thread with the reply (PMIX_SUCCESS), or with PMIX_ERR_TIMEOUT /
// PMIX_ERR_LOST_CONNECTION / PMIX_ERR_UNREACH (no server). timeout 0: none.
// When this returns an error the handler never runs.
pmix_status_t send_request(const std::shared_ptr<Session> &session, wire::Bytes payload,
                           std::chrono::milliseconds timeout, ReplyHandler handler);

// Sends a request that asks for no reply (tag 0, nothing tracked). A lost
// connection is not an error here: there is nothing left to fail later.
pmix_status_t send_oneway(const std::shared_ptr<Session> &session, const wire::Bytes &payload);

template <typename Request>
pmix_status_t send_message(const std::shared_ptr<Session> &session, const Request &request,
                           std::chrono::milliseconds timeout, ReplyHandler handler)
{
    wire::Bytes payload;
    pmix_status_t rc = wire::encode_to_bytes(request, &payload);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    return send_request(session, std::move(payload), timeout, std::move(handler));
}

using StatusDone = std::function<void(pmix_status_t status)>;

// Sends a request answered by a StatusReply; done then runs once on the
// progress thread with the reply's status (or the transport's error).
template <typename Request>
pmix_status_t send_status_request(const std::shared_ptr<Session> &session, const Request &request,
                                  std::chrono::milliseconds timeout, StatusDone done);

// The blocking form of an operation that start(done) begins: waits for the
// status done receives. start's own error is returned as is;
// PMIX_ERR_WOULD_BLOCK on the progress thread (only it could complete it).
pmix_status_t wait_for_status(const std::function<pmix_status_t(StatusDone done)> &start);

// The reply of a request: the transport status, else the decode status, else
// the reply's own status. *reply_p is filled whenever decoding succeeded.
template <typename Reply> pmix_status_t read_reply(pmix_status_t status, const wire::Frame *frame, Reply *reply_p)
{
    if (status != PMIX_SUCCESS) {
        return status;
    }
    if (frame == nullptr) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    pmix_status_t rc = wire::decode_payload(frame->payload, reply_p);
    if (rc == PMIX_SUCCESS) {
        return reply_p->status;
    }
    // A bare status: the server answered before building a full reply (a
    // limit reached, a request it does not know). It still says why.
    wire::StatusReply bare;
    if (wire::decode_payload(frame->payload, &bare) == PMIX_SUCCESS && bare.status != PMIX_SUCCESS) {
        return bare.status;
    }
    return rc;
}

template <typename Request>
pmix_status_t send_status_request(const std::shared_ptr<Session> &session, const Request &request,
                                  std::chrono::milliseconds timeout, StatusDone done)
{
    return send_message(session, request, timeout, [done](pmix_status_t st, const wire::Frame *frame) {
        wire::StatusReply reply;
        done(read_reply(st, frame, &reply));
    });
}

// Runs fn on the progress thread later (never inline), for _nb calls that
// complete locally: their callbacks must not run before the call returns.
pmix_status_t post_callback(const Session &session, std::function<void()> fn);

// A blocking call made on the progress thread (from a callback, or by a host
// that drives its own PMIX_EVENT_BASE) would wait for work only that thread
// can do: PMIX_ERR_WOULD_BLOCK instead of a deadlock, else PMIX_SUCCESS.
pmix_status_t check_may_block(const Session &session);

// What a request that the server (or its host) times out itself adds to
// PMIX_TIMEOUT: the server's answer, PMIX_ERR_TIMEOUT with its reason,
// arrives before the client gives up on its own.
inline constexpr std::chrono::milliseconds kServerTimeoutMargin{2000};

// PMIX_TIMEOUT (seconds) from an info array as a tracker timeout, plus
// `margin` so that the server's own timeout answers first; 0 when absent.
std::chrono::milliseconds timeout_of(const pmix_info_t info[], size_t ninfo,
                                     std::chrono::milliseconds margin = std::chrono::milliseconds{0});

// True when info holds `key` as a true flag, with the one meaning of
// <pmixpp/util.hpp>'s flag_set (no value, or the words true/yes/on, count).
bool flag_of(const pmix_info_t info[], size_t ninfo, const char *key);

}  // namespace pmixpp::client

#endif
