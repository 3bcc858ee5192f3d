#include "client/core/requests.h"

#include <pmixpp/util.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include <pmix.h>

#include "client/core/events.h"
#include "client/core/fence_arena.h"
#include "client/core/iof_handlers.h"
#include "client/openpmix/server_dialect.h"
#include "common/openpmix/frame.h"
#include "common/runtime/latch.h"
#include "common/runtime/log.h"

namespace pmixpp::client {

namespace {

// The active link of each session, readable from any thread so that a
// caller can send its request itself instead of waking the progress thread.
// Written (on the progress thread) wherever session.link changes.
struct ActiveLinks {
    std::mutex mutex;
    std::map<const Session *, std::weak_ptr<ServerLink>> by_session;
};

ActiveLinks &active_links()
{
    static ActiveLinks *links = new ActiveLinks();  // never destroyed: used until exit
    return *links;
}

void publish_active(const Session &session, const std::shared_ptr<ServerLink> &link)
{
    ActiveLinks &table = active_links();
    std::lock_guard lock(table.mutex);
    if (link) {
        table.by_session[&session] = link;
    } else {
        table.by_session.erase(&session);
    }
}

std::shared_ptr<ServerLink> active_link(const Session &session)
{
    ActiveLinks &table = active_links();
    std::lock_guard lock(table.mutex);
    auto found = table.by_session.find(&session);
    return found == table.by_session.end() ? nullptr : found->second.lock();
}

void on_iof_data(const wire::Frame &frame)
{
    wire::IofData data;
    if (wire::decode_payload(frame.payload, &data) != PMIX_SUCCESS) {
        runtime::log_warning("client", "malformed output notification from the server ignored");
        return;
    }
    deliver_iof(data);
}

void on_notification(const std::shared_ptr<Session> &session, const wire::Frame &frame)
{
    wire::Notification type{};
    if (wire::peek_notification(frame.payload, &type) != PMIX_SUCCESS) return;
    if (type == wire::Notification::IofData) return on_iof_data(frame);
    if (type != wire::Notification::Event) {
        return;  // a notification we do not know: ignored, as the protocol says
    }
    wire::Event event;
    if (wire::decode_payload(frame.payload, &event) != PMIX_SUCCESS) {
        runtime::log_warning("client", "malformed event notification from the server ignored");
        return;
    }
    deliver_event(session, std::move(event));
}

// What the dialect sends of itself (the next step of an invitation): a
// message that cannot leave fails its request.
void send_dialect_messages(ServerLink &link)
{
    for (auto &[tag, message] : link.openpmix->take_outgoing()) {
        const pmix_status_t rc = link.connection->send(wire::FrameKind::request, tag, message);
        if (rc == PMIX_SUCCESS) continue;
        link.openpmix->forget(tag);
        link.tracker->fail(tag, rc);
    }
}

// A frame from an OpenPMIx server: its answer becomes our reply, its
// event (tag 0) ours, its output (tag 2) goes to the pull's handler.
void on_openpmix_frame(const std::shared_ptr<Session> &session, ServerLink &link, const wire::Frame &frame)
{
    OpenPmixServerDialect &dialect = *link.openpmix;
    if (frame.header.kind == wire::FrameKind::notify && frame.header.tag == openpmix::kTagIof) {
        wire::IofData data;
        if (dialect.output(frame.payload, &data) != PMIX_SUCCESS) {
            runtime::log_warning("client", "malformed output from the OpenPMIx server ignored");
            return;
        }
        deliver_iof(data);
        return;
    }
    if (frame.header.kind == wire::FrameKind::notify) {
        wire::Event event;
        if (frame.header.tag != openpmix::kTagEvent) return;
        const pmix_status_t rc = dialect.event(frame.payload, &event);
        if (rc == PMIX_OPERATION_SUCCEEDED) return send_dialect_messages(link);
        if (rc != PMIX_SUCCESS) {
            runtime::log_warning("client", "malformed event from the OpenPMIx server ignored");
            return;
        }
        deliver_event(session, std::move(event));
        return;
    }
    wire::Frame ours;
    ours.header = frame.header;
    const pmix_status_t rc = dialect.reply(frame.header.tag, frame.payload, &ours.payload);
    if (rc == PMIX_ERR_NOT_FOUND) return;  // the answer to a request nobody waits for
    if (rc == PMIX_OPERATION_IN_PROGRESS) return send_dialect_messages(link);
    if (rc != PMIX_SUCCESS) {
        runtime::log_warning("client",
                             std::string("malformed answer from the OpenPMIx server: ") + PMIx_Error_string(rc));
        link.tracker->fail(frame.header.tag, rc);
        return;
    }
    ours.header.payload_size = static_cast<uint32_t>(ours.payload.size());
    link.tracker->complete(ours);
}

// Completes the request on `tag` with our reply `ours`, later, on the
// progress thread (never inline: an _nb caller's callback must not run
// before its call returns).
pmix_status_t answer_on_progress_thread(const Session &session, const std::shared_ptr<ServerLink> &link, uint32_t tag,
                                        wire::Bytes ours)
{
    return session.engine->post([link, tag, ours = std::move(ours)]() mutable {
        wire::Frame frame;
        frame.header.kind = wire::FrameKind::reply;
        frame.header.tag = tag;
        frame.header.payload_size = static_cast<uint32_t>(ours.size());
        frame.payload = std::move(ours);
        link->tracker->complete(frame);
    });
}

void on_frame(const std::weak_ptr<Session> &weak, const std::weak_ptr<ServerLink> &weak_link, const wire::Frame &frame)
{
    auto session = weak.lock();
    auto link = weak_link.lock();
    if (!session || !link || !link->tracker) {
        return;
    }
    if (link->openpmix) return on_openpmix_frame(session, *link, frame);
    switch (frame.header.kind) {
    case wire::FrameKind::reply:
        // A reply nobody waits for (timed out before) is dropped.
        link->tracker->complete(frame);
        break;
    case wire::FrameKind::notify: on_notification(session, frame); break;
    default:
        runtime::log_trace("PMIX_MCA_pmix_client_verbose", "client",
                           std::string("unexpected ") + wire::frame_kind_name(frame.header.kind) +
                               " frame from the server ignored");
        break;
    }
}

// Drops link from the session; when it was the active one, the next open
// link (if any) takes over.
void forget_link(Session &session, const std::shared_ptr<ServerLink> &link)
{
    auto &links = session.links;
    links.erase(std::remove(links.begin(), links.end(), link), links.end());
    if (session.link == link) {
        session.link.reset();
        publish_active(session, nullptr);
        if (!links.empty()) {
            make_active(session, links.front());
        }
    }
}

void on_close(const std::weak_ptr<Session> &weak, const std::weak_ptr<ServerLink> &weak_link, pmix_status_t status,
              const std::string &reason)
{
    auto session = weak.lock();
    auto link = weak_link.lock();
    if (!session || !link) {
        return;
    }
    if (link->tracker) {
        link->tracker->fail_all(PMIX_ERR_LOST_CONNECTION);
    }
    forget_link(*session, link);
    if (session->finalizing.load() || link->closing) {
        return;
    }
    arena_server_lost(*session);  // fences waiting in shared memory give up
    runtime::log_warning("client", std::string("lost the connection to the PMIx server ") + proc_text(link->server) +
                                       ": " + reason + " (" + PMIx_Error_string(status) + ")");
    wire::Event event;
    event.status = PMIX_ERR_LOST_CONNECTION;
    event.source = link->server;
    event.range = PMIX_RANGE_PROC_LOCAL;
    deliver_event(session, std::move(event));
}

}  // namespace

std::string proc_text(const pmix_proc_t &proc)
{
    return std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN)) + "." + std::to_string(proc.rank);
}

void make_active(Session &session, const std::shared_ptr<ServerLink> &link)
{
    session.link = link;
    session.server = link->server;
    publish_active(session, link);
    auto &links = session.links;
    // The active link first, so that losing it hands over to the next.
    auto found = std::find(links.begin(), links.end(), link);
    if (found != links.end()) {
        std::rotate(links.begin(), found, found + 1);
    }
}

pmix_status_t attach_connection(const std::shared_ptr<Session> &session, int fd, const pmix_proc_t &server,
                                std::shared_ptr<ServerLink> *link_p, std::shared_ptr<OpenPmixServerDialect> openpmix)
{
    pmix_status_t rc = PMIX_SUCCESS;
    auto attach = [&] {
        std::weak_ptr<Session> weak = session;
        auto link = std::make_shared<ServerLink>();
        std::weak_ptr<ServerLink> weak_link = link;
        link->server = server;
        link->tracker = std::make_unique<wire::RequestTracker>(*session->engine);
        auto connection = wire::Connection::create(*session->engine, fd);
        if (openpmix) {
            link->tracker->reserve_tags_below(openpmix::kFirstRequestTag);
            connection->set_framing(wire::Framing::openpmix_from_server);
            link->openpmix = std::move(openpmix);
        }
        connection->set_description("PMIx server " + proc_text(server));
        connection->set_message_handler(
            [weak, weak_link](const wire::Frame &frame) { on_frame(weak, weak_link, frame); });
        connection->set_close_handler([weak, weak_link](pmix_status_t status, const std::string &reason) {
            on_close(weak, weak_link, status, reason);
        });
        link->connection = connection;
        session->links.push_back(link);
        if (!session->link) {
            make_active(*session, link);
        }
        rc = connection->start();
        if (rc != PMIX_SUCCESS) {
            forget_link(*session, link);
        } else if (link_p != nullptr) {
            *link_p = link;
        }
    };
    // A session that PMIx_Init has not yet published is this thread's alone,
    // and connection->start() hands the socket to the progress thread
    // without waiting: the first link is built here, which spares every
    // process's init a wake-up of the progress thread and the wait for it.
    // An application's event base may have no locks: its loop builds it.
    if (!session->published && !session->engine->external()) {
        attach();
        return rc;
    }
    const pmix_status_t posted = session->engine->run_and_wait(attach);
    return posted != PMIX_SUCCESS ? posted : rc;
}

void close_link(Session &session, const std::shared_ptr<ServerLink> &link)
{
    link->closing = true;
    if (link->connection) {
        link->connection->close(PMIX_SUCCESS, "disconnected");
    }
    if (link->tracker) {
        link->tracker->fail_all(PMIX_ERR_LOST_CONNECTION);
    }
    forget_link(session, link);
}

void detach_connection(Session &session)
{
    session.finalizing = true;
    arena_detach(session);  // pending Fence_nb give up; the doorbell goes
    auto links = session.links;
    for (const auto &link : links) {
        close_link(session, link);
    }
    session.links.clear();
    session.link.reset();
    publish_active(session, nullptr);
}

pmix_status_t send_request(const std::shared_ptr<Session> &session, wire::Bytes payload,
                           std::chrono::milliseconds timeout, ReplyHandler handler)
{
    if (session->singleton) {
        return PMIX_ERR_UNREACH;
    }
    // Sent on the caller's thread: one thread wake-up less per request, and
    // requests of one thread still leave in order (the connection writes or
    // queues under one lock). The reply runs the handler on the progress
    // thread as before.
    std::shared_ptr<ServerLink> link = active_link(*session);
    if (!link || !link->connection || !link->tracker || !link->connection->is_open()) {
        // Reported later, never inline: _nb callers' callbacks must not run
        // before their call returns.
        return session->engine->post([handler = std::move(handler)] { handler(PMIX_ERR_LOST_CONNECTION, nullptr); });
    }
    uint32_t tag = link->tracker->add(std::move(handler), timeout);
    pmix_status_t rc = PMIX_SUCCESS;
    if (link->openpmix) {
        std::vector<uint8_t> theirs;
        wire::Bytes answer_here;
        rc = link->openpmix->request(tag, payload, &theirs, &answer_here);
        if (rc == PMIX_SUCCESS) rc = link->connection->send(wire::FrameKind::request, tag, theirs);
        if (rc != PMIX_SUCCESS) link->openpmix->forget(tag);
        if (rc == PMIX_SUCCESS && !answer_here.empty())
            return answer_on_progress_thread(*session, link, tag, answer_here);
    } else {
        rc = link->connection->send(wire::FrameKind::request, tag, payload);
    }
    if (rc == PMIX_SUCCESS) {
        return PMIX_SUCCESS;
    }
    // Failed on the progress thread like any other outcome (if the
    // connection's close got there first, this finds nothing to do).
    pmix_status_t posted = session->engine->post([link, tag, rc] { link->tracker->fail(tag, rc); });
    if (posted != PMIX_SUCCESS && link->tracker->forget(tag)) {
        return posted;
    }
    return PMIX_SUCCESS;
}

pmix_status_t send_oneway(const std::shared_ptr<Session> &session, const wire::Bytes &payload)
{
    if (session->singleton) {
        return PMIX_ERR_UNREACH;
    }
    std::shared_ptr<ServerLink> link = active_link(*session);
    if (!link || !link->connection || !link->connection->is_open()) {
        return PMIX_SUCCESS;  // as a tracked request would: it fails quietly
    }
    pmix_status_t rc = PMIX_SUCCESS;
    if (link->openpmix) {
        std::vector<uint8_t> theirs;
        wire::Bytes answer_here;  // nobody waits for it
        rc = link->openpmix->request(kOpenPmixUnwatchedTag, payload, &theirs, &answer_here);
        if (rc == PMIX_SUCCESS) rc = link->connection->send(wire::FrameKind::request, kOpenPmixUnwatchedTag, theirs);
    } else {
        rc = link->connection->send(wire::FrameKind::request, 0, payload);
    }
    return rc == PMIX_ERR_LOST_CONNECTION ? PMIX_SUCCESS : rc;
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

pmix_status_t wait_for_status(const std::function<pmix_status_t(StatusDone done)> &start)
{
    if (runtime::ProgressEngine::process().on_progress_thread()) return PMIX_ERR_WOULD_BLOCK;
    auto latch = std::make_shared<runtime::Latch<>>();
    const pmix_status_t rc = start([latch](pmix_status_t st) { latch->complete(st); });
    return rc != PMIX_SUCCESS ? rc : latch->wait();
}

std::chrono::milliseconds timeout_of(const pmix_info_t info[], size_t ninfo, std::chrono::milliseconds margin)
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
    return util::flag_set(info, ninfo, key);
}

}  // namespace pmixpp::client
