// Helpers both ptl components (usock, tcp) compile in: the SDK's strict
// readers for the PMIx_server_init info and component params, the
// component's log line, and a connect with a deadline. Header-only because each component is its own
// shared object and may not link the core's internals.
#ifndef PMIXPP_COMPONENTS_PTL_SHARED_HPP
#define PMIXPP_COMPONENTS_PTL_SHARED_HPP

#include <pmixpp/component.hpp>
#include <pmixpp/ptl.h>
#include <pmixpp/util.hpp>
#include <pmix_common.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pmixpp::ptl {

// ---- logging from module calls (outside the component hooks) ----

// The services table and descriptor are remembered at open so that listen or
// accept, which the core calls later, can still log through the core.
struct LogTarget {
    std::atomic<const pmixpp_services_t *> services{nullptr};
    std::atomic<const pmixpp_component_t *> self{nullptr};
};

inline LogTarget &log_target()
{
    static constinit LogTarget target;
    return target;
}

inline void remember_services(const sdk::Services &services, const pmixpp_component_t *self)
{
    log_target().services.store(services.raw());
    log_target().self.store(self);
}

inline void forget_services()
{
    log_target().services.store(nullptr);
    log_target().self.store(nullptr);
}

// The component's services as remembered at open (a null table before).
inline sdk::Services current_services()
{
    return sdk::Services(log_target().services.load(), log_target().self.load());
}

[[gnu::format(printf, 2, 3)]] inline void log(pmixpp_log_level_t level, const char *fmt, ...)
{
    const sdk::Services services = current_services();
    if (services.raw() == nullptr) return;
    char line[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    services.log(level, "%s", line);
}

// ---- reading attribute values: garbage gets a status, never a guess ----

// The SDK's readers (pmixpp/util.hpp), so a setting means here what it
// means to the server and the other components.
using util::find_info;
using util::read_bool;
using util::read_string;

// Any integer type, as util::read_unsigned, and also text read with `base`
// (see util::parse_unsigned): unlike the server's readers, a listener takes
// numbers as strings too, because hosts pass the socket mode and ports on
// from command lines and environment variables ("0660").
inline pmix_status_t read_unsigned(const pmix_value_t &value, uint64_t max, int base, uint64_t *value_p)
{
    if (value.type != PMIX_STRING) return util::read_unsigned(value, max, value_p);
    if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
    return util::parse_unsigned(value.data.string, max, base, value_p);
}

// One line naming the attribute and what was wrong with its value.
inline pmix_status_t report_bad_info(const char *key, pmix_status_t rc, const char *expected)
{
    log(PMIXPP_LOG_ERROR, "attribute %s: %s (expected %s)", key,
        rc == PMIX_ERR_TYPE_MISMATCH ? "wrong value type" : "value out of range or unreadable", expected);
    return rc;
}

// ---- sockets ----

inline pmix_status_t status_from_errno(int error)
{
    switch (error) {
    case ENOENT: return PMIX_ERR_NOT_FOUND;
    case EACCES:
    case EPERM: return PMIX_ERR_NO_PERMISSIONS;
    case ENOMEM:
    case ENOBUFS: return PMIX_ERR_NOMEM;
    case EMFILE:
    case ENFILE: return PMIX_ERR_OUT_OF_RESOURCE;  // out of descriptors
    case ECONNREFUSED:
    case ENETUNREACH:
    case EHOSTUNREACH:
    case ECONNRESET: return PMIX_ERR_UNREACH;
    case ETIMEDOUT: return PMIX_ERR_TIMEOUT;
    case EADDRINUSE:
    case EADDRNOTAVAIL:
    case EAFNOSUPPORT: return PMIX_ERR_NOT_AVAILABLE;
    default: return PMIX_ERROR;
    }
}

inline bool set_blocking(int fd, bool blocking)
{
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return false;
    const int wanted = blocking ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK);
    return wanted == flags || fcntl(fd, F_SETFL, wanted) == 0;
}

constexpr int default_connect_timeout_ms = 10000;

// Connects a non-blocking socket to `address` before the deadline and hands
// it back blocking. A Unix socket whose backlog is full says EAGAIN rather
// than EINPROGRESS: that is retried until the deadline too.
inline pmix_status_t connect_with_timeout(int fd, const sockaddr *address, socklen_t length, int timeout_ms)
{
    using clock = std::chrono::steady_clock;
    if (timeout_ms <= 0) timeout_ms = default_connect_timeout_ms;
    const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms);
    auto remaining_ms = [&] {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
        return left.count() > 0 ? static_cast<int>(left.count()) : 0;
    };
    for (;;) {
        if (::connect(fd, address, length) == 0) break;
        if (errno == EINTR) continue;
        if (errno == EAGAIN) {
            if (remaining_ms() == 0) return PMIX_ERR_TIMEOUT;
            poll(nullptr, 0, 10);
            continue;
        }
        if (errno != EINPROGRESS) return status_from_errno(errno);
        pollfd waiter{fd, POLLOUT, 0};
        int ready = 0;
        do {
            ready = poll(&waiter, 1, remaining_ms());
        } while (ready < 0 && errno == EINTR);
        if (ready == 0) return PMIX_ERR_TIMEOUT;
        if (ready < 0) return status_from_errno(errno);
        int error = 0;
        socklen_t error_length = sizeof(error);
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &error_length) != 0) return status_from_errno(errno);
        if (error != 0) return status_from_errno(error);
        break;
    }
    return set_blocking(fd, true) ? PMIX_SUCCESS : PMIX_ERROR;
}

// ---- listeners: the parts of listen/accept both transports do alike ----

// The argument checks every module listen() starts with.
inline bool listen_arguments_valid(const pmix_info_t info[], size_t ninfo, const pmixpp_ptl_listener_t listeners[],
                                   size_t max, const size_t *n_p)
{
    return listeners != nullptr && max > 0 && n_p != nullptr && (info != nullptr || ninfo == 0);
}

// The frame of every module listen(): argument checks, and std::bad_alloc
// turned into PMIX_ERR_NOMEM. `open(&count)` fills the slots and says how
// many; *n_p is set only on success.
template <typename Open>
pmix_status_t listen_guarded(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max,
                             size_t *n_p, Open &&open)
{
    if (!listen_arguments_valid(info, ninfo, listeners, max, n_p)) return PMIX_ERR_BAD_PARAM;
    try {
        size_t count = 0;
        const pmix_status_t rc = open(&count);
        if (rc != PMIX_SUCCESS) return rc;
        *n_p = count;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// Closes the socket of a listener; safe to call twice.
inline void close_listener_socket(pmixpp_ptl_listener_t *listener)
{
    if (listener->fd >= 0) close(listener->fd);
    listener->fd = -1;
}

// Fills one listener slot for an open socket; `uri` must fit (the callers
// check against PMIXPP_PTL_URI_MAX or accept truncation of a numeric uri).
inline void publish_listener(pmixpp_ptl_listener_t *listener, int fd, const std::string &uri, void *state)
{
    *listener = pmixpp_ptl_listener_t{};
    listener->struct_size = sizeof(*listener);
    listener->fd = fd;
    std::snprintf(listener->uri, sizeof(listener->uri), "%s", uri.c_str());
    listener->state = state;
    log(PMIXPP_LOG_TRACE, "listening on %s", listener->uri);
}

// Accepts one pending connection, non-blocking and close-on-exec.
// PMIX_ERR_WOULD_BLOCK when there is nothing (left) to accept: a peer that
// gave up before we got to it leaves nothing behind.
inline pmix_status_t accept_pending(const pmixpp_ptl_listener_t *listener, int *fd_p)
{
    if (listener == nullptr || listener->fd < 0 || fd_p == nullptr) return PMIX_ERR_BAD_PARAM;
    int fd = -1;
    do {
        fd = accept4(listener->fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) return PMIX_ERR_WOULD_BLOCK;
        return status_from_errno(errno);
    }
    *fd_p = fd;
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::ptl

#endif
