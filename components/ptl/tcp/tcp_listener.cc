// Server side of ptl/tcp: one listening socket per selected address.
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cstdio>
#include <new>

namespace pmixpp::ptl::tcp {
namespace {

void close_all(pmixpp_ptl_listener_t listeners[], size_t count)
{
    for (size_t i = 0; i < count; ++i) close_listener(&listeners[i]);
}

// PMIX_ERR_NOT_AVAILABLE alone means "this family does not exist here",
// which an ephemeral-port default may skip quietly.
// *error_p: the errno of a failure, for the message.
pmix_status_t open_socket(Endpoint address, uint16_t port, int *fd_p, Endpoint *bound_p, int *error_p)
{
    set_port(&address, port);
    util::UniqueFd fd(socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) {
        *error_p = errno;
        return status_from_errno(errno);
    }
    const int on = 1;
    // A fixed port must be reusable right after a previous server exited.
    setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (address.family() == AF_INET6) setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    Endpoint bound;
    bound.length = sizeof(bound.storage);
    if (bind(fd.get(), address.raw(), address.length) != 0 || ::listen(fd.get(), SOMAXCONN) != 0 ||
        getsockname(fd.get(), bound.raw(), &bound.length) != 0) {
        *error_p = errno;
        return status_from_errno(*error_p);
    }
    *fd_p = fd.release();
    *bound_p = bound;
    return PMIX_SUCCESS;
}

pmix_status_t write_report(const std::string &destination, pmixpp_ptl_listener_t listeners[], size_t count)
{
    FILE *out = destination == "-" ? stdout : destination == "+" ? stderr : std::fopen(destination.c_str(), "w");
    if (out == nullptr) {
        log(PMIXPP_LOG_ERROR, "cannot write the tcp URI to %s: %s (check PMIX_TCP_REPORT_URI)", destination.c_str(),
            std::strerror(errno));
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    bool written = true;
    for (size_t i = 0; i < count; ++i) written = std::fprintf(out, "%s\n", listeners[i].uri) > 0 && written;
    written = std::fflush(out) == 0 && written;
    if (out != stdout && out != stderr) written = std::fclose(out) == 0 && written;
    if (!written) {
        log(PMIXPP_LOG_ERROR, "cannot write the tcp URI to %s (check PMIX_TCP_REPORT_URI)", destination.c_str());
        return PMIX_ERR_FILE_OPEN_FAILURE;
    }
    return PMIX_SUCCESS;
}

pmix_status_t open_listeners(const Settings &settings, const std::vector<Endpoint> &addresses,
                             pmixpp_ptl_listener_t listeners[], size_t max, size_t *n_p)
{
    size_t count = 0;
    for (const Endpoint &address : addresses) {
        if (count == max) {
            log(PMIXPP_LOG_TRACE, "room for %zu listeners only; not listening on %s", max, to_uri(address).c_str());
            break;
        }
        const bool ipv4 = address.family() == AF_INET;
        const auto port = static_cast<uint16_t>(ipv4 ? settings.ipv4_port : settings.ipv6_port);
        int fd = -1;
        Endpoint bound;
        int error = 0;
        const pmix_status_t rc = open_socket(address, port, &fd, &bound, &error);
        if (rc == PMIX_ERR_NOT_AVAILABLE && port == 0) {
            log(PMIXPP_LOG_TRACE, "%s is not available here; skipped", to_uri(address).c_str());
            continue;
        }
        if (rc != PMIX_SUCCESS) {
            Endpoint wanted = address;
            set_port(&wanted, port);
            log(PMIXPP_LOG_ERROR, "cannot listen on %s: %s (choose another %s or free it)", to_uri(wanted).c_str(),
                std::strerror(error), ipv4 ? "PMIX_TCP_IPV4_PORT" : "PMIX_TCP_IPV6_PORT");
            close_all(listeners, count);
            return rc;
        }
        publish_listener(&listeners[count++], fd, to_uri(bound), nullptr);
    }
    if (count == 0) {
        log(PMIXPP_LOG_ERROR, "no tcp address could be opened (check PMIX_TCP_DISABLE_IPV4/IPV6 and the interfaces)");
        return PMIX_ERR_NOT_AVAILABLE;
    }
    *n_p = count;
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t listen(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max, size_t *n_p)
{
    return listen_guarded(info, ninfo, listeners, max, n_p, [&](size_t *count_p) {
        Settings settings;
        std::vector<Endpoint> addresses;
        pmix_status_t rc = read_settings(info, ninfo, &settings);
        if (rc == PMIX_SUCCESS) rc = select_addresses(settings, &addresses);
        size_t count = 0;
        if (rc == PMIX_SUCCESS) rc = open_listeners(settings, addresses, listeners, max, &count);
        if (rc != PMIX_SUCCESS) return rc;
        if (!settings.report_uri.empty() &&
            (rc = write_report(settings.report_uri, listeners, count)) != PMIX_SUCCESS) {
            close_all(listeners, count);
            return rc;
        }
        *count_p = count;
        return PMIX_SUCCESS;
    });
}

void close_listener(pmixpp_ptl_listener_t *listener)
{
    if (listener != nullptr) close_listener_socket(listener);
}

pmix_status_t accept(const pmixpp_ptl_listener_t *listener, int *fd_p, pmixpp_peer_identity_t *peer_p)
{
    if (peer_p == nullptr) return PMIX_ERR_BAD_PARAM;
    int fd = -1;
    const pmix_status_t rc = accept_pending(listener, &fd);
    if (rc != PMIX_SUCCESS) return rc;
    const int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    // The uid only: the rest (a /proc scan) is complete_identity's, off the
    // progress thread, so a flood of connections costs microseconds each.
    *peer_p = identify_socket_owner(fd);
    *fd_p = fd;
    return PMIX_SUCCESS;
}

void complete_identity(int fd, pmixpp_peer_identity_t *peer_p)
{
    if (peer_p == nullptr) return;
    try {
        *peer_p = identify_peer(fd);
    } catch (const std::bad_alloc &) {
        *peer_p = pmixpp_peer_identity_t{};
        peer_p->struct_size = sizeof(*peer_p);
    }
}

}  // namespace pmixpp::ptl::tcp
