// Private state of a Connection. The write side (outgoing queue, fd for
// writing, `closed`, `started`) is guarded by out_mutex because any thread
// may write a frame straight to the socket; the rest is touched only on the
// progress thread.
#ifndef PMIXPP_COMMON_WIRE_CONNECTION_IMPL_H
#define PMIXPP_COMMON_WIRE_CONNECTION_IMPL_H

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "common/wire/connection.h"
#include "common/wire/flow_limits.h"

struct event;

namespace pmixpp::wire {

// Where a connection's traces go (both halves of a connection write them).
inline constexpr const char *kPtlVerboseEnv = "PMIX_MCA_ptl_verbose";

struct Connection::Impl {
    Impl(runtime::ProgressEngine &engine_in, int fd_in, FrameLimits limits_in)
        : engine(engine_in), fd(fd_in), limits(limits_in)
    {}

    // connection_io.cc: the progress-thread side.
    void register_events(std::shared_ptr<Connection> owner);
    // Any thread: writes header+payload now when nothing is queued before it,
    // else (or for what the socket did not take) queues it and lets the
    // progress thread finish.
    pmix_status_t send_now(std::span<const uint8_t> header, std::span<const uint8_t> payload);
    // The same for a payload shared with other connections (an event sent
    // to many): what is queued keeps a reference, not a copy.
    pmix_status_t send_shared(std::span<const uint8_t> header, SharedBytes payload);
    // Progress thread: writes what is queued, arming the write event when
    // the socket is full.
    void flush();
    void finish_close(pmix_status_t status, const std::string &reason, bool log_it);
    void close_from_any_thread(pmix_status_t status, std::string reason);
    void begin_close_when_sent(pmix_status_t status, std::string reason);
    void arm_idle_timer();
    // Progress thread: stop or resume reading the peer (flow limits).
    void pause_reading();
    void resume_reading();
    void hold_reading(std::chrono::milliseconds at_most);
    void end_hold();
    // Reading is on unless paused for our queue or held for others'.
    void rearm_reading();

    runtime::ProgressEngine &engine;
    int fd;
    FrameLimits limits;
    FlowLimits flow;
    std::atomic<bool> accepting_sends{true};

    MessageHandler on_message;
    CloseHandler on_close;
    std::string description = "connection";
    std::chrono::milliseconds idle_timeout{0};
    runtime::Timer idle_timer;

    // Guards started, closed, fd (against close while another thread
    // writes), outgoing and outgoing_offset.
    std::mutex out_mutex;
    bool started = false;
    bool closed = false;
    bool flush_posted = false;         // a flush() is queued on the progress thread
    std::shared_ptr<Connection> self;  // keeps an open connection alive
    std::weak_ptr<Connection> weak_self;
    struct event *read_event = nullptr;
    struct event *write_event = nullptr;

    // How frames are delimited (frame.h). Set before start(), or decided by
    // the first header read (Framing::detect); read by senders on any
    // thread, which send nothing before the peer's first frame arrived.
    std::atomic<Framing> framing{Framing::pmixpp};
    // Frames read so far: OpenPMIx's first one has a header of its own.
    uint64_t frames_read = 0;
    // The header for a frame of this connection's framing; false for an
    // OpenPMIx handshake answer, which goes without one.
    bool make_header(FrameKind kind, uint32_t tag, size_t size, HeaderBytes *head_p) const;
    pmix_status_t decode_incoming_header(FrameHeader *header_p, std::string *reason_p);

    // Frame being read.
    HeaderBytes header_bytes{};
    size_t header_got = 0;
    bool in_payload = false;
    Frame incoming;
    size_t payload_got = 0;

    // Bytes read but not yet handed over: the rest of a read when reading
    // paused between two frames (at most one read's worth).
    std::vector<uint8_t> held;
    bool reading_paused = false;  // progress thread
    bool reading_held = false;    // progress thread: hold_reading
    runtime::Timer hold_timer;
    bool pause_requested = false;  // under out_mutex: a sender passed the high water
    size_t frames_this_wakeup = 0;

    // Frames waiting to be written; the first one is partly written. A frame
    // is its own bytes followed by a shared tail (an event's payload).
    struct Queued {
        std::vector<uint8_t> own;
        SharedBytes shared;
        size_t size() const { return own.size() + (shared ? shared->size() : 0); }
    };
    std::deque<Queued> outgoing;
    size_t outgoing_offset = 0;
    size_t queued_bytes = 0;  // unsent bytes in outgoing
    bool close_after_send = false;
    pmix_status_t pending_close_status = PMIX_SUCCESS;
    std::string pending_close_reason;

private:
    static void on_readable(int fd, short what, void *arg);
    static void on_writable(int fd, short what, void *arg);
    void read_some();
    // Queues what the socket did not take; under out_mutex. False (and
    // *reason_p) when the peer is over the hard limit.
    bool queue_locked(Queued frame, std::string *reason_p);
    pmix_status_t send_frame(std::span<const uint8_t> header, std::span<const uint8_t> payload,
                             const SharedBytes &shared);
    // Hands over what was held back; false once closed or paused again.
    bool release_held();
    bool should_stop_reading() const;
    enum class WriteStep { done, would_block, failed };
    WriteStep write_queued_locked(int *errno_p);
    void post_flush();
    enum class ReadStep { progress, would_block, closed };
    ReadStep handle_read_result(ssize_t n);
    // Feeds bytes read from the socket to the frame being assembled,
    // delivering each frame completed; false once the connection closed.
    bool consume(const uint8_t *bytes, size_t size);
    bool take_header_bytes(const uint8_t **bytes_p, size_t *size_p);
    bool take_payload_bytes(const uint8_t **bytes_p, size_t *size_p);
    void deliver_frame();
};

}  // namespace pmixpp::wire

#endif
