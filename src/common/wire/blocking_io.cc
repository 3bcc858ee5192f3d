// send_frame_blocking / recv_frame_blocking: the handshake phase of a client
// or tool, before the progress engine owns the socket.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>

#include "common/wire/connection.h"

namespace pmixpp::wire {

namespace {

using Clock = std::chrono::steady_clock;

class Deadline {
public:
    explicit Deadline(int timeout_ms)
        : forever_(timeout_ms < 0), end_(Clock::now() + std::chrono::milliseconds(timeout_ms))
    {}

    // Milliseconds left for poll(): -1 forever, 0 when expired.
    int remaining_ms() const
    {
        if (forever_) {
            return -1;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end_ - Clock::now());
        return left.count() > 0 ? static_cast<int>(left.count()) : 0;
    }

private:
    bool forever_;
    Clock::time_point end_;
};

void set_reason(std::string *reason_p, std::string reason)
{
    if (reason_p != nullptr) {
        *reason_p = std::move(reason);
    }
}

// Waits until fd is ready for events; PMIX_SUCCESS, PMIX_ERR_TIMEOUT or
// PMIX_ERR_LOST_CONNECTION.
pmix_status_t wait_ready(int fd, short events, const Deadline &deadline, std::string *reason_p)
{
    for (;;) {
        struct pollfd pfd = {fd, events, 0};
        int left = deadline.remaining_ms();
        int rc = ::poll(&pfd, 1, left);
        if (rc > 0) {
            return PMIX_SUCCESS;  // errors/hang-ups show up in the read/write itself
        }
        if (rc == 0) {
            set_reason(reason_p, "timed out waiting for the peer");
            return PMIX_ERR_TIMEOUT;
        }
        if (errno != EINTR) {
            set_reason(reason_p, std::string("poll failed: ") + std::strerror(errno));
            return PMIX_ERR_LOST_CONNECTION;
        }
    }
}

pmix_status_t write_all(int fd, const uint8_t *data, size_t size, const Deadline &deadline, std::string *reason_p)
{
    size_t done = 0;
    while (done < size) {
        pmix_status_t status = wait_ready(fd, POLLOUT, deadline, reason_p);
        if (status != PMIX_SUCCESS) {
            return status;
        }
        ssize_t n = ::send(fd, data + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == ENOTSOCK) {
            n = ::write(fd, data + done, size - done);
        }
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n < 0) {
            set_reason(reason_p, std::string("write failed: ") + std::strerror(errno));
            return PMIX_ERR_LOST_CONNECTION;
        }
        done += static_cast<size_t>(n);
    }
    return PMIX_SUCCESS;
}

// Reads exactly size bytes. EOF before the first byte of a frame is a clean
// close; anywhere else the frame is truncated. `part` names it for the reason.
pmix_status_t read_all(int fd, uint8_t *data, size_t size, const Deadline &deadline, bool frame_start, const char *part,
                       std::string *reason_p)
{
    size_t done = 0;
    while (done < size) {
        pmix_status_t status = wait_ready(fd, POLLIN, deadline, reason_p);
        if (status != PMIX_SUCCESS) {
            return status;
        }
        ssize_t n = ::recv(fd, data + done, size - done, MSG_DONTWAIT);
        if (n < 0 && errno == ENOTSOCK) {
            n = ::read(fd, data + done, size - done);
        }
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n < 0) {
            set_reason(reason_p, std::string("read failed: ") + std::strerror(errno));
            return PMIX_ERR_LOST_CONNECTION;
        }
        if (n == 0) {
            if (done == 0 && frame_start) {
                set_reason(reason_p, "peer closed the connection");
                return PMIX_ERR_LOST_CONNECTION;
            }
            set_reason(reason_p, std::string("peer closed the connection inside a frame ") + part);
            return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
        }
        done += static_cast<size_t>(n);
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t send_frame_blocking(int fd, FrameKind kind, uint32_t tag, std::span<const uint8_t> payload,
                                  int timeout_ms, std::string *reason_p)
{
    std::vector<uint8_t> bytes;
    pmix_status_t status = encode_frame(kind, tag, payload, &bytes);
    if (status != PMIX_SUCCESS) {
        set_reason(reason_p, "cannot encode the frame");
        return status;
    }
    return write_all(fd, bytes.data(), bytes.size(), Deadline(timeout_ms), reason_p);
}

pmix_status_t send_bytes_blocking(int fd, std::span<const uint8_t> bytes, int timeout_ms, std::string *reason_p)
{
    return write_all(fd, bytes.data(), bytes.size(), Deadline(timeout_ms), reason_p);
}

pmix_status_t recv_bytes_blocking(int fd, std::span<uint8_t> bytes, int timeout_ms, std::string *reason_p)
{
    return read_all(fd, bytes.data(), bytes.size(), Deadline(timeout_ms), true, "", reason_p);
}

pmix_status_t recv_frame_blocking(int fd, const FrameLimits &limits, int timeout_ms, Frame *frame_p,
                                  std::string *reason_p)
{
    Deadline deadline(timeout_ms);
    HeaderBytes head{};
    pmix_status_t status = read_all(fd, head.data(), head.size(), deadline, true, "header", reason_p);
    if (status != PMIX_SUCCESS) {
        return status;
    }
    Frame frame;
    std::string reason;
    status = decode_header(head, limits, &frame.header, &reason);
    if (status != PMIX_SUCCESS) {
        set_reason(reason_p, reason);
        return status;
    }
    try {
        frame.payload.resize(frame.header.payload_size);
    } catch (const std::bad_alloc &) {
        set_reason(reason_p, "out of memory for the frame payload");
        return PMIX_ERR_NOMEM;
    }
    status = read_all(fd, frame.payload.data(), frame.payload.size(), deadline, false, "payload", reason_p);
    if (status != PMIX_SUCCESS) {
        return status;
    }
    *frame_p = std::move(frame);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::wire
