// Client side of ptl/tcp.
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

#include <pmix.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <new>

namespace pmixpp::ptl::tcp {

int handles_uri(const char *uri)
{
    if (uri == nullptr) return 0;
    try {
        Endpoint endpoint;
        return parse_uri(uri, &endpoint) ? 1 : 0;
    } catch (const std::bad_alloc &) {
        return 0;
    }
}

pmix_status_t connect(const char *uri, int timeout_ms, int *fd_p)
{
    if (uri == nullptr || fd_p == nullptr || timeout_ms < 0) return PMIX_ERR_BAD_PARAM;
    try {
        Endpoint endpoint;
        if (!parse_uri(uri, &endpoint)) return PMIX_ERR_BAD_PARAM;
        util::UniqueFd fd(socket(endpoint.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd) return status_from_errno(errno);
        const pmix_status_t rc = connect_with_timeout(fd.get(), endpoint.raw(), endpoint.length, timeout_ms);
        if (rc != PMIX_SUCCESS) {
            log(PMIXPP_LOG_TRACE, "cannot connect to %s: %s", uri, PMIx_Error_string(rc));
            return rc;
        }
        const int on = 1;
        setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
        *fd_p = fd.release();
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::ptl::tcp
