// The I/O of a Connection: libevent callbacks, framing of the byte stream,
// the direct write from any thread with the progress thread's write queue
// behind it, and the single close path.
#include "common/openpmix/frame.h"

#include <event2/event.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <new>

#include "common/runtime/log.h"
#include "common/wire/connection_impl.h"

namespace pmixpp::wire {

namespace {

// Reads per wake-up, so one chatty peer cannot starve the others.
constexpr int kMaxReadsPerWakeup = 256;
// A claimed payload length is only allocated as its bytes arrive.
constexpr size_t kFirstPayloadChunk = 64 * 1024;
// Bytes taken from a socket per read.
constexpr size_t kStageBytes = 64 * 1024;

// The calling thread's read buffer, or a private one when a frame handler
// reads another connection from inside read_some (the thread's is in use).
class StageLease {
public:
    StageLease()
    {
        if (!busy_) {
            busy_ = true;
            owner_ = true;
            if (!thread_stage_) thread_stage_ = std::make_unique<uint8_t[]>(kStageBytes);
            data_ = thread_stage_.get();
        } else {
            own_ = std::make_unique<uint8_t[]>(kStageBytes);
            data_ = own_.get();
        }
    }
    ~StageLease()
    {
        if (owner_) busy_ = false;
    }
    StageLease(const StageLease &) = delete;
    StageLease &operator=(const StageLease &) = delete;
    uint8_t *data() { return data_; }
    size_t size() const { return kStageBytes; }

private:
    static thread_local std::unique_ptr<uint8_t[]> thread_stage_;
    static thread_local bool busy_;
    std::unique_ptr<uint8_t[]> own_;
    uint8_t *data_ = nullptr;
    bool owner_ = false;
};

thread_local std::unique_ptr<uint8_t[]> StageLease::thread_stage_;
thread_local bool StageLease::busy_ = false;

// One gather write of header and payload, without SIGPIPE, retried on EINTR.
ssize_t write_frame(int fd, std::span<const uint8_t> header, std::span<const uint8_t> payload)
{
    struct iovec iov[2] = {
        {const_cast<uint8_t *>(header.data()), header.size()},
        {const_cast<uint8_t *>(payload.data()), payload.size()},
    };
    struct msghdr msg {};
    msg.msg_iov = iov;
    msg.msg_iovlen = payload.empty() ? 1 : 2;
    for (;;) {
        ssize_t n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK) {
            n = ::writev(fd, iov, static_cast<int>(msg.msg_iovlen));
        }
        if (n >= 0 || errno != EINTR) {
            return n;
        }
    }
}

// What a partial write left of header+payload, as one queued buffer.
std::vector<uint8_t> unsent_bytes(std::span<const uint8_t> header, std::span<const uint8_t> payload, size_t written)
{
    std::vector<uint8_t> rest;
    rest.reserve(header.size() + payload.size() - written);
    if (written < header.size()) {
        rest.insert(rest.end(), header.begin() + static_cast<std::ptrdiff_t>(written), header.end());
        written = 0;
    } else {
        written -= header.size();
    }
    rest.insert(rest.end(), payload.begin() + static_cast<std::ptrdiff_t>(written), payload.end());
    return rest;
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
    {
        std::lock_guard lock(out_mutex);
        started = true;
    }
    if (!close_after_send) {
        event_add(read_event, nullptr);
        arm_idle_timer();
    }
    flush();
}

pmix_status_t Connection::Impl::send_now(std::span<const uint8_t> header, std::span<const uint8_t> payload)
{
    return send_frame(header, payload, nullptr);
}

pmix_status_t Connection::Impl::send_shared(std::span<const uint8_t> header, SharedBytes payload)
{
    return send_frame(header, *payload, payload);
}

pmix_status_t Connection::Impl::send_frame(std::span<const uint8_t> header, std::span<const uint8_t> payload,
                                           const SharedBytes &shared)
{
    const size_t total = header.size() + payload.size();
    size_t written = 0;
    int error = 0;
    std::string over_limit;
    bool need_flush = false;
    bool need_pause = false;
    {
        std::lock_guard lock(out_mutex);
        if (closed) {
            return PMIX_ERR_LOST_CONNECTION;
        }
        if (started && outgoing.empty()) {
            // The common case: the socket takes the whole frame at once and
            // nobody else has to wake up for it.
            ssize_t n = write_frame(fd, header, payload);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                error = errno;
            } else if (n > 0) {
                written = static_cast<size_t>(n);
            }
            if (error == 0 && written == total) {
                return PMIX_SUCCESS;
            }
        }
        if (error == 0) {
            Queued frame;
            try {
                if (shared && written <= header.size()) {
                    frame.own.assign(header.begin() + static_cast<std::ptrdiff_t>(written), header.end());
                    frame.shared = shared;
                } else {
                    frame.own = unsent_bytes(header, payload, written);
                }
            } catch (const std::bad_alloc &) {
                if (written == 0) {
                    return PMIX_ERR_NOMEM;
                }
                error = ENOMEM;  // half a frame is on the wire: the stream is lost
            }
            if (error == 0 && !queue_locked(std::move(frame), &over_limit)) {
                error = EMSGSIZE;
            }
            need_flush = error == 0 && started && outgoing.size() == 1;
            need_pause = error == 0 && flow.pauses() && !pause_requested && queued_bytes > flow.high_water;
            if (need_pause) {
                pause_requested = true;
            }
        }
    }
    if (!over_limit.empty()) {
        runtime::log_warning("wire", "dropping " + description + ": " + over_limit);
        close_from_any_thread(PMIX_ERR_OUT_OF_RESOURCE, over_limit);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (error != 0) {
        close_from_any_thread(PMIX_ERR_LOST_CONNECTION, std::string("write failed: ") + std::strerror(error));
        return PMIX_SUCCESS;
    }
    if (need_flush) {
        post_flush();
    }
    if (need_pause) {
        std::shared_ptr<Connection> conn = weak_self.lock();
        if (conn && engine.on_progress_thread()) {
            pause_reading();
        } else if (conn) {
            (void)engine.post([conn] { conn->impl_->pause_reading(); });
        }
    }
    return PMIX_SUCCESS;
}

void Connection::Impl::post_flush()
{
    std::shared_ptr<Connection> conn = weak_self.lock();
    if (!conn) {
        return;
    }
    if (engine.on_progress_thread()) {
        flush();
        return;
    }
    // Fails only when the engine stopped, and then the connection goes too.
    (void)engine.post([conn] { conn->impl_->flush(); });
}

void Connection::Impl::close_from_any_thread(pmix_status_t status, std::string reason)
{
    std::shared_ptr<Connection> conn = weak_self.lock();
    if (!conn) {
        return;
    }
    auto job = [conn, status, reason] { conn->impl_->finish_close(status, reason, false); };
    if (engine.on_progress_thread() || engine.post(job) != PMIX_SUCCESS) {
        job();
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
    bool nothing_queued = false;
    {
        std::lock_guard lock(out_mutex);
        nothing_queued = started && outgoing.empty();
    }
    if (nothing_queued) {
        finish_close(pending_close_status, pending_close_reason, false);
    }
}

void Connection::Impl::finish_close(pmix_status_t status, const std::string &reason, bool log_it)
{
    if (closed) {
        return;
    }
    accepting_sends = false;
    {
        std::lock_guard lock(out_mutex);
        closed = true;  // no sender writes to fd from now on
        outgoing.clear();
        queued_bytes = 0;
    }
    idle_timer.cancel();
    hold_timer.cancel();
    // The events go before the socket: libevent removes them from epoll by
    // their fd, and a closed fd makes it print "Epoll MOD(...) on fd N
    // failed ... Bad file descriptor" (or hit a reused number).
    if (read_event != nullptr) {
        event_free(read_event);
        read_event = nullptr;
    }
    if (write_event != nullptr) {
        event_free(write_event);
        write_event = nullptr;
    }
    {
        // No other thread may be writing to fd when it is closed (and its
        // number perhaps reused).
        std::lock_guard lock(out_mutex);
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    incoming = Frame{};
    held.clear();
    held.shrink_to_fit();
    std::string line = "closing " + description + ": " + reason;
    if (log_it) {
        runtime::log_warning("wire", line + " (the peer is broken or not a pmixpp peer)");
    } else {
        runtime::log_trace(kPtlVerboseEnv, "wire", line);
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
            conn->impl_->finish_close(PMIX_ERR_TIMEOUT, "no complete frame within " + std::to_string(ms) + " ms", true);
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
    impl->flush();
}

Connection::Impl::WriteStep Connection::Impl::write_queued_locked(int *errno_p)
{
    while (!outgoing.empty()) {
        const Queued &front = outgoing.front();
        const std::span<const uint8_t> own(front.own);
        const std::span<const uint8_t> tail =
            front.shared ? std::span<const uint8_t>(*front.shared) : std::span<const uint8_t>();
        const ssize_t n = outgoing_offset < own.size()
                              ? write_frame(fd, own.subspan(outgoing_offset), tail)
                              : write_frame(fd, tail.subspan(outgoing_offset - own.size()), {});
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                return WriteStep::would_block;
            }
            *errno_p = errno;
            return WriteStep::failed;
        }
        outgoing_offset += static_cast<size_t>(n);
        queued_bytes -= static_cast<size_t>(n);
        if (outgoing_offset == front.size()) {
            outgoing.pop_front();
            outgoing_offset = 0;
        }
    }
    return WriteStep::done;
}

void Connection::Impl::flush()
{
    WriteStep step = WriteStep::done;
    int error = 0;
    bool drained = false;
    {
        std::lock_guard lock(out_mutex);
        if (closed || !started) {
            return;
        }
        step = write_queued_locked(&error);
        drained = queued_bytes <= flow.low_water;
    }
    if (drained && reading_paused && step != WriteStep::failed) {
        resume_reading();
    }
    // Events are touched only here, on the progress thread. A sender that
    // finds the queue empty after we unlock writes by itself, and posts a
    // flush (which runs after this) if the socket is full.
    switch (step) {
    case WriteStep::would_block: event_add(write_event, nullptr); return;
    case WriteStep::failed:
        finish_close(PMIX_ERR_LOST_CONNECTION, std::string("write failed: ") + std::strerror(error), false);
        return;
    case WriteStep::done:
        event_del(write_event);
        if (close_after_send) {
            finish_close(pending_close_status, pending_close_reason, false);
        }
        return;
    }
}

void Connection::Impl::read_some()
{
    frames_this_wakeup = 0;
    if (reading_paused || reading_held) {
        return;
    }
    // One read takes every frame the socket holds, up to the stage's size,
    // instead of a read for each header and payload and a last one to learn
    // that the socket is empty. The stage is the thread's, not the
    // connection's: a server with many clients keeps one, not one each.
    std::optional<StageLease> lease;
    try {
        lease.emplace();
    } catch (const std::bad_alloc &) {
        finish_close(PMIX_ERR_NOMEM, "out of memory for a read buffer", true);
        return;
    }
    bool more = release_held();
    for (int i = 0; more && i < kMaxReadsPerWakeup && !closed; ++i) {
        ssize_t n = ::read(fd, lease->data(), lease->size());
        ReadStep step = handle_read_result(n);
        if (n <= 0) {
            if (step == ReadStep::progress) {
                continue;  // interrupted
            }
            return;
        }
        more = consume(lease->data(), static_cast<size_t>(n)) && static_cast<size_t>(n) == lease->size();
    }
    // Stopped at the cap on frames, not for a pause: the rest waits for the
    // next turn of the loop, after the other peers had theirs.
    if (!closed && !reading_paused && !reading_held && !held.empty() && read_event != nullptr) {
        event_active(read_event, EV_READ, 0);
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
        finish_close(PMIX_ERR_LOST_CONNECTION, std::string("read failed: ") + std::strerror(errno), false);
        return ReadStep::closed;
    }
    if (header_got == 0 && !in_payload) {
        finish_close(PMIX_ERR_LOST_CONNECTION, "peer closed the connection", false);
        return ReadStep::closed;
    }
    std::string where =
        in_payload ? "payload (" + std::to_string(payload_got) + " of " + std::to_string(incoming.header.payload_size) +
                         " bytes)"
                   : "header (" + std::to_string(header_got) + " of " + std::to_string(kFrameHeaderSize) + " bytes)";
    finish_close(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER, "peer closed the connection inside a frame " + where, true);
    return ReadStep::closed;
}

bool Connection::Impl::consume(const uint8_t *bytes, size_t size)
{
    while (size > 0 && !closed) {
        if (should_stop_reading()) {
            // Kept for later (at most one read's worth): the peer waits in
            // its socket buffer meanwhile.
            try {
                held.assign(bytes, bytes + size);
            } catch (const std::bad_alloc &) {
                finish_close(PMIX_ERR_NOMEM, "out of memory holding back a read", true);
            }
            return false;
        }
        const bool ok = in_payload ? take_payload_bytes(&bytes, &size) : take_header_bytes(&bytes, &size);
        if (!ok) {
            return false;
        }
    }
    return !closed;
}

bool Connection::Impl::take_header_bytes(const uint8_t **bytes_p, size_t *size_p)
{
    const size_t take = std::min(*size_p, kFrameHeaderSize - header_got);
    std::memcpy(header_bytes.data() + header_got, *bytes_p, take);
    header_got += take;
    *bytes_p += take;
    *size_p -= take;
    if (header_got < kFrameHeaderSize) {
        return true;
    }
    std::string reason;
    FrameHeader header;
    pmix_status_t status = decode_incoming_header(&header, &reason);
    if (status != PMIX_SUCCESS) {
        finish_close(status, reason, true);
        return false;
    }
    incoming.header = header;
    incoming.payload.clear();
    payload_got = 0;
    if (header.payload_size == 0) {
        deliver_frame();
    } else {
        in_payload = true;
    }
    return !closed;
}

bool Connection::Impl::take_payload_bytes(const uint8_t **bytes_p, size_t *size_p)
{
    const size_t total = incoming.header.payload_size;
    const size_t take = std::min(*size_p, total - payload_got);
    if (payload_got + take > incoming.payload.size()) {
        // Grow geometrically as bytes arrive: a peer claiming 64 MiB and
        // sending nothing costs us nothing.
        size_t next = std::min(total, std::max({kFirstPayloadChunk, 2 * payload_got, payload_got + take}));
        try {
            incoming.payload.resize(next);
        } catch (const std::bad_alloc &) {
            finish_close(PMIX_ERR_NOMEM, "out of memory for a " + std::to_string(total) + "-byte frame", true);
            return false;
        }
    }
    std::memcpy(incoming.payload.data() + payload_got, *bytes_p, take);
    payload_got += take;
    *bytes_p += take;
    *size_p -= take;
    if (payload_got == total) {
        deliver_frame();
    }
    return !closed;
}

pmix_status_t Connection::Impl::decode_incoming_header(FrameHeader *header_p, std::string *reason_p)
{
    Framing now = framing.load();
    if (now == Framing::detect) {
        now = openpmix::starts_connect_request(header_bytes) ? Framing::openpmix_from_client : Framing::pmixpp;
        framing = now;
    }
    if (!is_openpmix(now)) return decode_header(header_bytes, limits, header_p, reason_p);
    if (frames_read == 0 && now == Framing::openpmix_from_client) {
        return openpmix::decode_connect_header(header_bytes, header_p, reason_p);
    }
    return openpmix::decode_header(header_bytes, limits, now == Framing::openpmix_from_server, header_p, reason_p);
}

void Connection::Impl::deliver_frame()
{
    Frame frame = std::move(incoming);
    incoming = Frame{};
    ++frames_read;
    header_got = 0;
    in_payload = false;
    payload_got = 0;
    ++frames_this_wakeup;
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
