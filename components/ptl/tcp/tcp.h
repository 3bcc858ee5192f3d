// ptl/tcp internals: TCP over IPv4 and IPv6, addressed by URIs
// "tcp4://a.b.c.d:port" and "tcp6://[addr]:port".
#ifndef PMIXPP_COMPONENTS_PTL_TCP_H
#define PMIXPP_COMPONENTS_PTL_TCP_H

#include <pmixpp/component.hpp>
#include <pmixpp/ptl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sys/socket.h>

namespace pmixpp::ptl::tcp {

// An IPv4 or IPv6 socket address.
struct Endpoint {
    sockaddr_storage storage{};
    socklen_t length = 0;

    int family() const { return storage.ss_family; }
    const sockaddr *raw() const { return reinterpret_cast<const sockaddr *>(&storage); }
    sockaddr *raw() { return reinterpret_cast<sockaddr *>(&storage); }
};

// What PMIx_server_init's info and the component params ask for; info wins.
struct Settings {
    bool remote_connections = false;
    std::string if_include;  // "lo,eth0" or "10.0.0.0/8,..."
    std::string if_exclude;
    unsigned ipv4_port = 0;  // 0: ephemeral
    unsigned ipv6_port = 0;
    bool disable_ipv4 = false;
    bool disable_ipv6 = false;
    std::string report_uri;  // "-" stdout, "+" stderr, else a file
};

// tcp_settings.cc: params are declared at register_params and read at every
// listen, so a bad value is reported to the caller that can fix it.
void declare_params(const pmixpp::sdk::Services &services);
pmix_status_t read_settings(const pmix_info_t info[], size_t ninfo, Settings *settings_p);

// tcp_interfaces.cc: the addresses to listen on (port still 0).
pmix_status_t select_addresses(const Settings &settings, std::vector<Endpoint> *addresses_p);

// tcp_address.cc
bool parse_uri(std::string_view uri, Endpoint *endpoint_p);
std::string to_uri(const Endpoint &endpoint);
bool is_loopback(const Endpoint &endpoint);
bool same_host_address(const Endpoint &a, const Endpoint &b);
uint16_t port_of(const Endpoint &endpoint);
void set_port(Endpoint *endpoint, uint16_t port);

// tcp_peer.cc: what the kernel knows about the other end of an accepted
// socket: its owner's uid alone (cheap, at accept), or everything (scans
// /proc: off the progress thread).
pmixpp_peer_identity_t identify_socket_owner(int fd);
pmixpp_peer_identity_t identify_peer(int fd);

// The module operations (pmixpp_ptl_module_t).
pmix_status_t listen(const pmix_info_t info[], size_t ninfo, pmixpp_ptl_listener_t listeners[], size_t max,
                     size_t *n_p);
void close_listener(pmixpp_ptl_listener_t *listener);
pmix_status_t accept(const pmixpp_ptl_listener_t *listener, int *fd_p, pmixpp_peer_identity_t *peer_p);
void complete_identity(int fd, pmixpp_peer_identity_t *peer_p);
int handles_uri(const char *uri);
pmix_status_t connect(const char *uri, int timeout_ms, int *fd_p);

}  // namespace pmixpp::ptl::tcp

#endif
