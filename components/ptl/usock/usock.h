// ptl/usock internals: Unix stream sockets, addressed by URIs
// "usock:/absolute/path" (a socket file) or "usock:@name" (a Linux abstract
// socket, used when the file's path would not fit in sun_path).
#ifndef PMIXPP_COMPONENTS_PTL_USOCK_H
#define PMIXPP_COMPONENTS_PTL_USOCK_H

#include <pmixpp/ptl.h>

#include <string>
#include <string_view>

#include <sys/socket.h>
#include <sys/un.h>

namespace pmixpp::ptl::usock {

struct UnixAddress {
    std::string name;  // absolute path, or the abstract name without its leading NUL
    bool abstract = false;
};

// The usable length of sun_path: one byte stays for the path's terminating
// NUL (or, for an abstract name, the leading one).
constexpr size_t max_name_length = sizeof(sockaddr_un::sun_path) - 1;

bool parse_uri(std::string_view uri, UnixAddress *address_p);
std::string to_uri(const UnixAddress &address);
// False when the name does not fit in sun_path.
bool to_sockaddr(const UnixAddress &address, sockaddr_un *sockaddr_p, socklen_t *length_p);

// The module operations (pmixpp_ptl_module_t).
pmix_status_t listen(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max,
                     size_t *n_p);
void close_listener(pmixpp_ptl_listener_t *listener);
pmix_status_t accept(const pmixpp_ptl_listener_t *listener, int *fd_p, pmixpp_peer_identity_t *peer_p);
int handles_uri(const char *uri);
pmix_status_t connect(const char *uri, int timeout_ms, int *fd_p);

}  // namespace pmixpp::ptl::usock

#endif
