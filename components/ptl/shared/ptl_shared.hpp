// Helpers both ptl components (usock, tcp) compile in: strict readers for the
// PMIx_server_init info and component params, the component's log line, and
// a connect with a deadline. Header-only because each component is its own
// shared object and may not link the core's internals.
#ifndef PMIXPP_COMPONENTS_PTL_SHARED_HPP
#define PMIXPP_COMPONENTS_PTL_SHARED_HPP

#include <pmixpp/component.hpp>
#include <pmixpp/ptl.h>
#include <pmix_common.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <charconv>
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

inline const pmix_info_t *find_info(const pmix_info_t info[], size_t ninfo, const char *key)
{
    if (info == nullptr) return nullptr;
    for (size_t i = 0; i < ninfo; ++i) {
        if (std::strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) return &info[i];
    }
    return nullptr;
}

inline pmix_status_t parse_bool_text(std::string_view text, bool *value_p)
{
    static constexpr std::string_view yes[] = {"1", "true", "yes", "on", "TRUE", "True", "YES", "Yes"};
    static constexpr std::string_view no[] = {"0", "false", "no", "off", "FALSE", "False", "NO", "No"};
    for (auto word : yes) {
        if (text == word) {
            *value_p = true;
            return PMIX_SUCCESS;
        }
    }
    for (auto word : no) {
        if (text == word) {
            *value_p = false;
            return PMIX_SUCCESS;
        }
    }
    return PMIX_ERR_BAD_PARAM;
}

// base 0: "0660" is octal and "0x1b6" hex, as strtoul reads them.
inline pmix_status_t parse_unsigned_text(std::string_view text, uint64_t max, int base, uint64_t *value_p)
{
    if (text.empty()) return PMIX_ERR_BAD_PARAM;
    if (base == 0) {
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            text.remove_prefix(2);
        } else if (text.size() > 1 && text[0] == '0') {
            base = 8;
            text.remove_prefix(1);
        } else {
            base = 10;
        }
    }
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size() || value > max) return PMIX_ERR_BAD_PARAM;
    *value_p = value;
    return PMIX_SUCCESS;
}

// Presence without a value (PMIX_UNDEF) means true, as PMIx flags do.
inline pmix_status_t read_bool(const pmix_value_t &value, bool *value_p)
{
    switch (value.type) {
    case PMIX_UNDEF: *value_p = true; return PMIX_SUCCESS;
    case PMIX_BOOL: *value_p = value.data.flag; return PMIX_SUCCESS;
    case PMIX_STRING:
        if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
        return parse_bool_text(value.data.string, value_p);
    default: return PMIX_ERR_TYPE_MISMATCH;
    }
}

// Any integer type; negative or above `max` is PMIX_ERR_BAD_PARAM. Strings
// are read with `base` (see parse_unsigned_text).
inline pmix_status_t read_unsigned(const pmix_value_t &value, uint64_t max, int base, uint64_t *value_p)
{
    int64_t signed_value = 0;
    uint64_t unsigned_value = 0;
    bool is_signed = true;
    switch (value.type) {
    case PMIX_INT: signed_value = value.data.integer; break;
    case PMIX_INT8: signed_value = value.data.int8; break;
    case PMIX_INT16: signed_value = value.data.int16; break;
    case PMIX_INT32: signed_value = value.data.int32; break;
    case PMIX_INT64: signed_value = value.data.int64; break;
    case PMIX_UINT: unsigned_value = value.data.uint; is_signed = false; break;
    case PMIX_UINT8: unsigned_value = value.data.uint8; is_signed = false; break;
    case PMIX_UINT16: unsigned_value = value.data.uint16; is_signed = false; break;
    case PMIX_UINT32: unsigned_value = value.data.uint32; is_signed = false; break;
    case PMIX_UINT64: unsigned_value = value.data.uint64; is_signed = false; break;
    case PMIX_SIZE: unsigned_value = value.data.size; is_signed = false; break;
    case PMIX_STRING:
        if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
        return parse_unsigned_text(value.data.string, max, base, value_p);
    default: return PMIX_ERR_TYPE_MISMATCH;
    }
    if (is_signed) {
        if (signed_value < 0) return PMIX_ERR_BAD_PARAM;
        unsigned_value = static_cast<uint64_t>(signed_value);
    }
    if (unsigned_value > max) return PMIX_ERR_BAD_PARAM;
    *value_p = unsigned_value;
    return PMIX_SUCCESS;
}

inline pmix_status_t read_string(const pmix_value_t &value, std::string *value_p)
{
    if (value.type != PMIX_STRING) return PMIX_ERR_TYPE_MISMATCH;
    if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
    *value_p = value.data.string;
    return PMIX_SUCCESS;
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

} // namespace pmixpp::ptl

#endif
