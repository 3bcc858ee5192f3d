// Connection: the thread-safe public face. The I/O itself is in
// connection_io.cc: reads on the progress thread, writes on the sending
// thread when the socket takes them at once.
#include "common/wire/connection.h"

#include <fcntl.h>
#include <unistd.h>

#include <new>
#include <utility>

#include "common/openpmix/frame.h"
#include "common/wire/connection_impl.h"

namespace pmixpp::wire {

namespace {

// Runs fn now when already on the progress thread, so that work done from a
// handler keeps its order; else hands it over.
pmix_status_t run_on_progress(runtime::ProgressEngine &engine, std::function<void()> fn)
{
    if (engine.on_progress_thread()) {
        fn();
        return PMIX_SUCCESS;
    }
    return engine.post(std::move(fn));
}

}  // namespace

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Connection::~Connection()
{
    if (impl_->fd >= 0) {
        ::close(impl_->fd);
    }
}

std::shared_ptr<Connection> Connection::create(runtime::ProgressEngine &engine, int fd, FrameLimits limits)
{
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) {
        (void)::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    }
    std::shared_ptr<Connection> conn(new Connection(std::make_unique<Impl>(engine, fd, limits)));
    conn->impl_->weak_self = conn;
    return conn;
}

bool Connection::Impl::make_header(FrameKind kind, uint32_t tag, size_t size, HeaderBytes *head_p) const
{
    const auto body_size = static_cast<uint32_t>(size);
    switch (framing.load()) {
    case Framing::openpmix_from_client:
        if (kind == FrameKind::handshake) return false;
        *head_p = openpmix::encode_header(0, tag, body_size);
        return true;
    case Framing::openpmix_from_server:
        *head_p = kind == FrameKind::handshake ? openpmix::encode_connect_header(body_size)
                                               : openpmix::encode_header(0, tag, body_size);
        return true;
    default: break;
    }
    FrameHeader header;
    header.kind = kind;
    header.tag = tag;
    header.payload_size = body_size;
    *head_p = encode_header(header);
    return true;
}

void Connection::set_framing(Framing framing)
{
    impl_->framing = framing;
}

Framing Connection::framing() const
{
    return impl_->framing.load();
}

void Connection::set_message_handler(MessageHandler handler)
{
    impl_->on_message = std::move(handler);
}

void Connection::set_close_handler(CloseHandler handler)
{
    impl_->on_close = std::move(handler);
}

void Connection::set_description(std::string description)
{
    impl_->description = std::move(description);
}

void Connection::set_idle_timeout(std::chrono::milliseconds timeout)
{
    impl_->idle_timeout = timeout;
}

void Connection::set_flow_limits(const FlowLimits &limits)
{
    impl_->flow = limits;
}

void Connection::hold_reading(std::chrono::milliseconds at_most)
{
    impl_->hold_reading(at_most);
}

pmix_status_t Connection::start()
{
    try {
        return run_on_progress(impl_->engine, [self = shared_from_this()] { self->impl_->register_events(self); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t Connection::send(FrameKind kind, uint32_t tag, std::span<const uint8_t> payload)
{
    if (!impl_->accepting_sends.load()) {
        return PMIX_ERR_LOST_CONNECTION;
    }
    if (payload.size() > impl_->limits.max_payload) {
        return PMIX_ERR_BAD_PARAM;
    }
    HeaderBytes head{};
    if (!impl_->make_header(kind, tag, payload.size(), &head)) return impl_->send_now(payload, {});
    return impl_->send_now(head, payload);
}

pmix_status_t Connection::send_shared(FrameKind kind, uint32_t tag, const SharedBytes &payload)
{
    if (!impl_->accepting_sends.load()) {
        return PMIX_ERR_LOST_CONNECTION;
    }
    if (!payload || payload->size() > impl_->limits.max_payload) {
        return PMIX_ERR_BAD_PARAM;
    }
    HeaderBytes head{};
    if (!impl_->make_header(kind, tag, payload->size(), &head)) return impl_->send_now(*payload, {});
    return impl_->send_shared(head, payload);
}

pmix_status_t Connection::send_encoded(std::vector<uint8_t> frame_bytes)
{
    if (!impl_->accepting_sends.load()) {
        return PMIX_ERR_LOST_CONNECTION;
    }
    return impl_->send_now(frame_bytes, {});
}

void Connection::close(pmix_status_t reason_status, std::string reason)
{
    impl_->accepting_sends = false;
    auto job = [self = shared_from_this(), reason_status, reason] {
        self->impl_->finish_close(reason_status, reason, false);
    };
    if (run_on_progress(impl_->engine, job) != PMIX_SUCCESS) {
        // No engine: nothing can be registered with it, so close right here.
        job();
    }
}

void Connection::close_when_sent(pmix_status_t reason_status, std::string reason)
{
    impl_->accepting_sends = false;
    auto job = [self = shared_from_this(), reason_status, reason] {
        self->impl_->begin_close_when_sent(reason_status, reason);
    };
    if (run_on_progress(impl_->engine, job) != PMIX_SUCCESS) {
        impl_->finish_close(reason_status, reason, false);
    }
}

bool Connection::is_open() const
{
    return impl_->accepting_sends.load();
}

size_t Connection::queued_bytes() const
{
    std::lock_guard lock(impl_->out_mutex);
    return impl_->queued_bytes;
}

const std::string &Connection::description() const
{
    return impl_->description;
}

}  // namespace pmixpp::wire
