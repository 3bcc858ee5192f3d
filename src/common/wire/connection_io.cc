// The progress-thread side of a Connection: libevent callbacks, framing of
// the byte stream, the write queue and the single close path.
#include <event2/event.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>

#include "common/runtime/log.h"
#include "common/wire/connection_impl.h"

namespace pmixpp::wire {

namespace {

constexpr const char *kVerboseEnv = "PMIX_MCA_ptl_verbose";
// Reads per wake-up, so one chatty peer cannot starve the others.
constexpr int kMaxReadsPerWakeup = 256;
// A claimed payload length is only allocated as its bytes arrive.
constexpr size_t kFirstPayloadChunk = 64 * 1024;

ssize_t send_no_sigpipe(int fd, const uint8_t *data, size_t size)
{
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) {
        n = ::write(fd, data, size);
    }
    return n;
}

}  // namespace

void Connection::Impl::register_events(std::shared_ptr<Connection> owner)
{
    if (closed || started) {
        return;
    }
    struct event_base *base = engine.base();
    if (base != nullptr) {
        read_event = event_new(base, fd, EV_READ | EV_PERSIST, on_readable, this);
        write_event = event_new(base, fd, EV_WRITE | EV_PERSIST, on_writable, this);
    }
    if (read_event == nullptr || write_event == nullptr) {
        finish_close(PMIX_ERR_OUT_OF_RESOURCE, "cannot register the socket with libevent", true);
        return;
    }
    self = std::move(owner);
    started = true;
    if (!close_after_send) {
        event_add(read_event, nullptr);
        arm_idle_timer();
    }
    write_some();
}

void Connection::Impl::enqueue(std::vector<uint8_t> bytes)
{
    if (closed) {
        return;
    }
    bool was_idle = outgoing.empty();
    outgoing.push_back(std::move(bytes));
    if (started && was_idle) {
        write_some();  // usually completes at once; else the write event takes over
    }
}

void Connection::Impl::begin_close_when_sent(pmix_status_t status, std::string reason)
{
    if (closed) {
        return;
    }
    close_after_send = true;
    pending_close_status = status;
    pending_close_reason = std::move(reason);
    idle_timer.cancel();
    if (read_event != nullptr) {
        event_del(read_event);
    }
    if (started && outgoing.empty()) {
        finish_close(pending_close_status, pending_close_reason, false);
    }
}

void Connection::Impl::finish_close(pmix_status_t status, const std::string &reason, bool log_it)
{
    if (closed) {
        return;
    }
    closed = true;
    accepting_sends = false;
    idle_timer.cancel();
    if (read_event != nullptr) {
        event_free(read_event);
        read_event = nullptr;
    }
    if (write_event != nullptr) {
        event_free(write_event);
        write_event = nullptr;
    }
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
    outgoing.clear();
    incoming = Frame{};
    std::string line = "closing " + description + ": " + reason;
    if (log_it) {
        runtime::log_warning("wire", line + " (the peer is broken or not a pmixpp peer)");
    } else {
        runtime::log_trace(kVerboseEnv, "wire", line);
    }
    CloseHandler handler = std::move(on_close);
    on_close = nullptr;
    on_message = nullptr;
    if (handler) {
        try {
            handler(status, reason);
        } catch (const std::exception &e) {
            runtime::log_warning("wire", std::string("close handler threw: ") + e.what());
        } catch (...) {
            runtime::log_warning("wire", "close handler threw an unknown exception");
        }
    }
    // Every entry point holds its own reference, so this cannot free us
    // while a caller up the stack still uses the object.
    self.reset();
}

void Connection::Impl::arm_idle_timer()
{
    if (idle_timeout.count() <= 0 || closed) {
        return;
    }
    idle_timer.cancel();
    auto ms = idle_timeout.count();
    idle_timer = engine.add_timer(idle_timeout, [weak = weak_self, ms] {
        if (auto conn = weak.lock()) {
            conn->impl_->finish_close(PMIX_ERR_TIMEOUT,
                                      "no complete frame within " + std::to_string(ms) + " ms",
                                      true);
        }
    });
}

void Connection::Impl::on_readable(int, short, void *arg)
{
    auto *impl = static_cast<Impl *>(arg);
    std::shared_ptr<Connection> keep = impl->self;
    impl->read_some();
}

void Connection::Impl::on_writable(int, short, void *arg)
{
    auto *impl = static_cast<Impl *>(arg);
    std::shared_ptr<Connection> keep = impl->self;
    impl->write_some();
}

void Connection::Impl::write_some()
{
    while (!closed && !outgoing.empty()) {
        const std::vector<uint8_t> &front = outgoing.front();
        ssize_t n = send_no_sigpipe(fd, front.data() + outgoing_offset, front.size() - outgoing_offset);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                event_add(write_event, nullptr);
                return;
            }
            finish_close(PMIX_ERR_LOST_CONNECTION, std::string("write failed: ") + std::strerror(errno),
                         false);
            return;
        }
        outgoing_offset += static_cast<size_t>(n);
        if (outgoing_offset == front.size()) {
            outgoing.pop_front();
            outgoing_offset = 0;
        }
    }
    if (closed) {
        return;
    }
    event_del(write_event);
    if (close_after_send) {
        finish_close(pending_close_status, pending_close_reason, false);
    }
}

void Connection::Impl::read_some()
{
    for (int i = 0; i < kMaxReadsPerWakeup && !closed; ++i) {
        ReadStep step = in_payload ? read_payload() : read_header();
        if (step != ReadStep::progress) {
            return;
        }
    }
}

Connection::Impl::ReadStep Connection::Impl::handle_read_result(ssize_t n)
{
    if (n > 0) {
        return ReadStep::progress;
    }
    if (n < 0) {
        if (errno == EINTR) {
            return ReadStep::progress;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return ReadStep::would_block;
        }
        finish_close(PMIX_ERR_LOST_CONNECTION, std::string("read failed: ") + std::strerror(errno),
                     false);
        return ReadStep::closed;
    }
    if (header_got == 0 && !in_payload) {
        finish_close(PMIX_ERR_LOST_CONNECTION, "peer closed the connection", false);
        return ReadStep::closed;
    }
    std::string where = in_payload
        ? "payload (" + std::to_string(payload_got) + " of " +
              std::to_string(incoming.header.payload_size) + " bytes)"
        : "header (" + std::to_string(header_got) + " of " + std::to_string(kFrameHeaderSize) +
              " bytes)";
    finish_close(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
                 "peer closed the connection inside a frame " + where, true);
    return ReadStep::closed;
}

Connection::Impl::ReadStep Connection::Impl::read_header()
{
    ssize_t n = ::read(fd, header_bytes.data() + header_got, kFrameHeaderSize - header_got);
    ReadStep step = handle_read_result(n);
    if (n <= 0) {
        return step;
    }
    header_got += static_cast<size_t>(n);
    if (header_got < kFrameHeaderSize) {
        return ReadStep::progress;
    }
    std::string reason;
    FrameHeader header;
    pmix_status_t status = decode_header(header_bytes, limits, &header, &reason);
    if (status != PMIX_SUCCESS) {
        finish_close(status, reason, true);
        return ReadStep::closed;
    }
    incoming.header = header;
    incoming.payload.clear();
    payload_got = 0;
    if (header.payload_size == 0) {
        deliver_frame();
    } else {
        in_payload = true;
    }
    return closed ? ReadStep::closed : ReadStep::progress;
}

Connection::Impl::ReadStep Connection::Impl::read_payload()
{
    size_t total = incoming.header.payload_size;
    if (payload_got == incoming.payload.size()) {
        // Grow geometrically as bytes arrive: a peer claiming 64 MiB and
        // sending nothing costs us nothing.
        size_t next = std::min(total, std::max(kFirstPayloadChunk, 2 * payload_got));
        try {
            incoming.payload.resize(next);
        } catch (const std::bad_alloc &) {
            finish_close(PMIX_ERR_NOMEM, "out of memory for a " + std::to_string(total) +
                                             "-byte frame", true);
            return ReadStep::closed;
        }
    }
    ssize_t n = ::read(fd, incoming.payload.data() + payload_got, incoming.payload.size() - payload_got);
    ReadStep step = handle_read_result(n);
    if (n <= 0) {
        return step;
    }
    payload_got += static_cast<size_t>(n);
    if (payload_got == total) {
        deliver_frame();
    }
    return closed ? ReadStep::closed : ReadStep::progress;
}

void Connection::Impl::deliver_frame()
{
    Frame frame = std::move(incoming);
    incoming = Frame{};
    header_got = 0;
    in_payload = false;
    payload_got = 0;
    arm_idle_timer();
    if (!on_message) {
        return;
    }
    // Moved out while it runs: a handler that closes the connection must not
    // destroy the very function object that is executing.
    MessageHandler handler = std::move(on_message);
    on_message = nullptr;
    try {
        handler(frame);
    } catch (const std::exception &e) {
        runtime::log_warning("wire", "message handler of " + description + " threw: " + e.what());
    } catch (...) {
        runtime::log_warning("wire", "message handler of " + description + " threw");
    }
    if (!closed && !on_message) {
        on_message = std::move(handler);
    }
}

}  // namespace pmixpp::wire
