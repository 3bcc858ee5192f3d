#include "client/core/requests.h"

#include <cstring>
#include <string>

#include <pmix.h>

#include "client/core/events.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

void on_notification(const std::shared_ptr<Session> &session, const wire::Frame &frame)
{
    wire::Notification type{};
    if (wire::peek_notification(frame.payload, &type) != PMIX_SUCCESS ||
        type != wire::Notification::Event) {
        return;  // a notification we do not know: ignored, as the protocol says
    }
    wire::Event event;
    if (wire::decode_payload(frame.payload, &event) != PMIX_SUCCESS) {
        runtime::log_warning("client", "malformed event notification from the server ignored");
        return;
    }
    deliver_event(session, std::move(event));
}

void on_frame(const std::weak_ptr<Session> &weak, const wire::Frame &frame)
{
    auto session = weak.lock();
    if (!session || !session->tracker) {
        return;
    }
    switch (frame.header.kind) {
    case wire::FrameKind::reply:
        // A reply nobody waits for (timed out before) is dropped.
        session->tracker->complete(frame);
        break;
    case wire::FrameKind::notify:
        on_notification(session, frame);
        break;
    default:
        runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                           std::string("unexpected ") + wire::frame_kind_name(frame.header.kind) +
                               " frame from the server ignored");
        break;
    }
}

void on_close(const std::weak_ptr<Session> &weak, pmix_status_t status, const std::string &reason)
{
    auto session = weak.lock();
    if (!session) {
        return;
    }
    if (session->tracker) {
        session->tracker->fail_all(PMIX_ERR_LOST_CONNECTION);
    }
    if (session->finalizing.load()) {
        return;
    }
    runtime::log_warning("client", std::string("lost the connection to the PMIx server: ") + reason +
                                       " (" + PMIx_Error_string(status) + ")");
    wire::Event event;
    event.status = PMIX_ERR_LOST_CONNECTION;
    event.source = session->server;
    event.range = PMIX_RANGE_PROC_LOCAL;
    deliver_event(session, std::move(event));
}

}  // namespace

pmix_status_t attach_connection(const std::shared_ptr<Session> &session, int fd)
{
    pmix_status_t rc = PMIX_SUCCESS;
    pmix_status_t posted = session->engine->run_and_wait([&] {
        std::weak_ptr<Session> weak = session;
        session->tracker = std::make_unique<wire::RequestTracker>(*session->engine);
        auto connection = wire::Connection::create(*session->engine, fd);
        connection->set_description(std::string("PMIx server ") + session->server.nspace + "." +
                                    std::to_string(session->server.rank));
        connection->set_message_handler([weak](const wire::Frame &frame) { on_frame(weak, frame); });
        connection->set_close_handler([weak](pmix_status_t status, const std::string &reason) {
            on_close(weak, status, reason);
        });
        session->connection = connection;
        rc = connection->start();
    });
    return posted != PMIX_SUCCESS ? posted : rc;
}

void detach_connection(Session &session)
{
    session.finalizing = true;
    if (session.connection) {
        session.connection->close(PMIX_SUCCESS, "finalized");
        session.connection.reset();
    }
    if (session.tracker) {
        session.tracker->fail_all(PMIX_ERR_LOST_CONNECTION);
    }
}

pmix_status_t send_request(const std::shared_ptr<Session> &session, wire::Bytes payload,
                           std::chrono::milliseconds timeout, ReplyHandler handler)
{
    if (session->singleton) {
        return PMIX_ERR_UNREACH;
    }
    return session->engine->post([session, payload = std::move(payload), timeout,
                                  handler = std::move(handler)]() mutable {
        if (!session->connection || !session->tracker || !session->connection->is_open()) {
            handler(PMIX_ERR_LOST_CONNECTION, nullptr);
            return;
        }
        uint32_t tag = session->tracker->add(std::move(handler), timeout);
        pmix_status_t rc = session->connection->send(wire::FrameKind::request, tag, payload);
        if (rc != PMIX_SUCCESS) {
            session->tracker->fail(tag, rc);
        }
    });
}

pmix_status_t post_callback(const Session &session, std::function<void()> fn)
{
    return session.engine->post(std::move(fn));
}

pmix_status_t check_may_block(const Session &session)
{
    if (!session.engine->on_progress_thread()) {
        return PMIX_SUCCESS;
    }
    runtime::log_warning("client", "a blocking PMIx call was made on the progress thread "
                                   "(use the _nb form from callbacks)");
    return PMIX_ERR_WOULD_BLOCK;
}

std::chrono::milliseconds timeout_of(const pmix_info_t info[], size_t ninfo,
                                     std::chrono::milliseconds margin)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, PMIX_TIMEOUT, PMIX_MAX_KEYLEN) != 0) {
            continue;
        }
        long seconds = 0;
        const pmix_value_t &v = info[i].value;
        switch (v.type) {
        case PMIX_INT: seconds = v.data.integer; break;
        case PMIX_INT32: seconds = v.data.int32; break;
        case PMIX_UINT32: seconds = static_cast<long>(v.data.uint32); break;
        case PMIX_UINT: seconds = static_cast<long>(v.data.uint); break;
        case PMIX_SIZE: seconds = static_cast<long>(v.data.size); break;
        default: break;
        }
        if (seconds > 0) {
            return std::chrono::seconds{seconds} + margin;
        }
    }
    return std::chrono::milliseconds{0};
}

bool flag_of(const pmix_info_t info[], size_t ninfo, const char *key)
{
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (std::strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) {
            return info[i].value.type == PMIX_UNDEF ||
                   (info[i].value.type == PMIX_BOOL && info[i].value.data.flag);
        }
    }
    return false;
}

}  // namespace pmixpp::client
