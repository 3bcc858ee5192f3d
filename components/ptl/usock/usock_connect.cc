// Client side of ptl/usock.
#include "usock.h"

#include "../shared/ptl_shared.hpp"

#include <pmix.h>

#include <new>

#include <unistd.h>

namespace pmixpp::ptl::usock {

int handles_uri(const char *uri)
{
    if (uri == nullptr) return 0;
    try {
        UnixAddress address;
        return parse_uri(uri, &address) ? 1 : 0;
    } catch (const std::bad_alloc &) {
        return 0;
    }
}

pmix_status_t connect(const char *uri, int timeout_ms, int *fd_p)
{
    if (uri == nullptr || fd_p == nullptr || timeout_ms < 0) return PMIX_ERR_BAD_PARAM;
    try {
        UnixAddress address;
        sockaddr_un unix_address{};
        socklen_t length = 0;
        if (!parse_uri(uri, &address) || !to_sockaddr(address, &unix_address, &length)) return PMIX_ERR_BAD_PARAM;
        util::UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd) return status_from_errno(errno);
        const pmix_status_t rc =
            connect_with_timeout(fd.get(), reinterpret_cast<const sockaddr *>(&unix_address), length, timeout_ms);
        if (rc != PMIX_SUCCESS) {
            log(PMIXPP_LOG_TRACE, "cannot connect to %s: %s", uri, PMIx_Error_string(rc));
            return rc;
        }
        *fd_p = fd.release();
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::ptl::usock
