// A framed message stream over one connected socket, driven by the progress
// engine. Used by the server for each client/tool and by the client/tool for
// its server once the handshake is done.
//
// Threading rules
// - create(), set_*() before start(); then send(), close(), close_when_sent()
//   from any thread. send() writes the frame on the calling thread when
//   nothing is queued before it and the socket takes it whole (no hand-off);
//   else the rest is queued for the progress thread. Frames sent by one
//   thread leave in the order sent; close() and close_when_sent() post to
//   the progress thread.
// - The message and close handlers run on the progress thread and may call
//   send()/close() on this or any other connection.
// - The close handler runs exactly once, whatever ends the connection; no
//   message handler runs after it. Outgoing frames still queued are dropped.
// - An open connection keeps itself alive (the engine holds a reference) even
//   if its owner drops its shared_ptr; after closing, the last owner frees it.
// - Close every connection before the engine's last release().
//
// Why a connection closes (status given to the close handler):
//   peer closed between frames          PMIX_ERR_LOST_CONNECTION
//   read/write error (ECONNRESET, ...)  PMIX_ERR_LOST_CONNECTION
//   peer closed inside a frame          PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER
//   malformed header                    PMIX_ERR_UNPACK_FAILURE
//   payload length over the limit       PMIX_ERR_BAD_PARAM
//   idle timeout expired                PMIX_ERR_TIMEOUT
//   close()/close_when_sent()           the status the caller gave
// Abnormal closes (malformed, oversized, truncated, idle timeout) are logged
// as one "pmixpp: wire: ..." line naming the connection's description.
#ifndef PMIXPP_COMMON_WIRE_CONNECTION_H
#define PMIXPP_COMMON_WIRE_CONNECTION_H

#include <chrono>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"
#include "common/wire/frame.h"

namespace pmixpp::wire {

struct FlowLimits;

// An encoded payload several connections send (an event fanned out).
using SharedBytes = std::shared_ptr<const std::vector<uint8_t>>;

class Connection : public std::enable_shared_from_this<Connection> {
public:
    using MessageHandler = std::function<void(const Frame &frame)>;
    using CloseHandler = std::function<void(pmix_status_t reason_status, const std::string &reason)>;

    // Takes ownership of fd (set non-blocking here, closed by the connection).
    // Nothing is read until start().
    static std::shared_ptr<Connection> create(runtime::ProgressEngine &engine, int fd,
                                              FrameLimits limits = FrameLimits::from_environment());
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // How frames are delimited (frame.h); pmixpp's own unless set. A server
    // sets Framing::detect to serve OpenPMIx's peers on the same socket.
    void set_framing(Framing framing);
    // What the connection speaks (after the first frame, for detect).
    Framing framing() const;
    void set_message_handler(MessageHandler handler);
    void set_close_handler(CloseHandler handler);
    // Name used in log lines, e.g. "client nspace.3 (pid 1234)".
    void set_description(std::string description);
    // Closes with PMIX_ERR_TIMEOUT when no complete frame arrives within
    // timeout (re-armed after each frame). 0 disables (the default). Use it
    // for the handshake phase so a silent peer cannot hold a slot forever.
    void set_idle_timeout(std::chrono::milliseconds timeout);
    // Bounds what this peer may cost (flow_limits.h): reading pauses while
    // more than limits.high_water bytes wait to be sent to it and resumes
    // below limits.low_water; past limits.hard_limit it is closed with
    // PMIX_ERR_OUT_OF_RESOURCE and one log line. Servers set it; by default
    // nothing is limited.
    void set_flow_limits(const FlowLimits &limits);
    // Stops reading this peer for `at_most` (progress thread): a producer
    // whose frames fill other connections' queues (events fanned out to
    // slow readers) waits for them a little, instead of growing them to
    // their hard limit. Its own pause (set_flow_limits) is kept apart.
    void hold_reading(std::chrono::milliseconds at_most);

    // Registers the socket with the engine. PMIX_ERR_INIT when the engine is
    // not running. Frames sent before start() are queued.
    pmix_status_t start();

    // Writes (or queues) one frame. PMIX_ERR_LOST_CONNECTION once closed (or
    // closing), PMIX_ERR_BAD_PARAM when payload is over the limit. A write
    // error closes the connection (its close handler says why) and still
    // returns PMIX_SUCCESS, as if the frame had been queued first.
    pmix_status_t send(FrameKind kind, uint32_t tag, std::span<const uint8_t> payload);
    // Same, for a payload other connections send too: queued by reference.
    pmix_status_t send_shared(FrameKind kind, uint32_t tag, const SharedBytes &payload);
    // Same, taking an already encoded frame (encode_frame) without copying.
    pmix_status_t send_encoded(std::vector<uint8_t> frame_bytes);

    // Closes now. reason_status/reason are handed to the close handler.
    void close(pmix_status_t reason_status = PMIX_SUCCESS, std::string reason = "closed locally");
    // Stops reading, sends what is queued (e.g. a REFUSE), then closes.
    void close_when_sent(pmix_status_t reason_status, std::string reason);

    bool is_open() const;
    // Bytes waiting to be sent (for tests and diagnostics).
    size_t queued_bytes() const;
    const std::string &description() const;

private:
    struct Impl;
    explicit Connection(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Blocking helpers for the connect/handshake phase, before a Connection owns
// the fd. Work on blocking and non-blocking fds; timeout_ms < 0 waits forever.
// Failures: PMIX_ERR_TIMEOUT, PMIX_ERR_LOST_CONNECTION (EOF/IO error), and
// the decode_header statuses; *reason_p (if non-null) says why.
pmix_status_t send_frame_blocking(int fd, FrameKind kind, uint32_t tag, std::span<const uint8_t> payload,
                                  int timeout_ms, std::string *reason_p = nullptr);
pmix_status_t recv_frame_blocking(int fd, const FrameLimits &limits, int timeout_ms, Frame *frame_p,
                                  std::string *reason_p = nullptr);
// Raw bytes, no frame: another protocol's handshake (OpenPMIx's).
pmix_status_t send_bytes_blocking(int fd, std::span<const uint8_t> bytes, int timeout_ms,
                                  std::string *reason_p = nullptr);
pmix_status_t recv_bytes_blocking(int fd, std::span<uint8_t> bytes, int timeout_ms, std::string *reason_p = nullptr);

}  // namespace pmixpp::wire

#endif
