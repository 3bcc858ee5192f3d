// ptl/tcp: TCP for clients, tools and servers. Listens on loopback only
// unless PMIX_SERVER_REMOTE_CONNECTIONS asks for more; peers on this host are
// identified by the kernel (sock_diag + /proc), peers elsewhere are not and
// must bring a credential (psec/munge).
//
// Priority 30, below ptl/usock (50): a local client that can use either
// prefers the Unix socket.
#include "tcp.h"

#include "../shared/ptl_shared.hpp"

namespace {

constexpr pmixpp_ptl_module_t tcp_module = {
    .struct_size = sizeof(pmixpp_ptl_module_t),
    .name = "tcp",
    .listen = pmixpp::ptl::tcp::listen,
    .close_listener = pmixpp::ptl::tcp::close_listener,
    .accept = pmixpp::ptl::tcp::accept,
    .handles_uri = pmixpp::ptl::tcp::handles_uri,
    .connect = pmixpp::ptl::tcp::connect,
    .complete_identity = pmixpp::ptl::tcp::complete_identity,
};

}  // namespace

extern "C" const pmixpp_component_t *pmixpp_ptl_tcp_component(void);

struct TcpTransport {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 30;
    static constexpr uint16_t framework_major = PMIXPP_PTL_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PTL_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services) { pmixpp::ptl::tcp::declare_params(services); }

    static void open(pmixpp::sdk::Services &services)
    {
        pmixpp::ptl::remember_services(services, pmixpp_ptl_tcp_component());
    }

    static const void *query(pmixpp::sdk::Services &, int &) { return &tcp_module; }

    static void close() { pmixpp::ptl::forget_services(); }
};

PMIXPP_CXX_COMPONENT(ptl, tcp, TcpTransport)
