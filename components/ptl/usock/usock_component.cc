// ptl/usock: the transport between a server and the clients on its node,
// over a Unix stream socket. The kernel names every peer (SO_PEERCRED), so
// psec/native can trust uid, gid and pid without a credential.
//
// Priority 50, above ptl/tcp (30): a local client prefers the socket whose
// peer the kernel identifies without a /proc search.
#include "usock.h"

#include "../shared/ptl_shared.hpp"

namespace {

constexpr pmixpp_ptl_module_t usock_module = {
    .struct_size = sizeof(pmixpp_ptl_module_t),
    .name = "usock",
    .listen = pmixpp::ptl::usock::listen,
    .close_listener = pmixpp::ptl::usock::close_listener,
    .accept = pmixpp::ptl::usock::accept,
    .handles_uri = pmixpp::ptl::usock::handles_uri,
    .connect = pmixpp::ptl::usock::connect,
    .complete_identity = nullptr,  // SO_PEERCRED tells everything at accept
};

}  // namespace

extern "C" const pmixpp_component_t *pmixpp_ptl_usock_component(void);

struct UsockTransport {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 50;
    static constexpr uint16_t framework_major = PMIXPP_PTL_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PTL_API_MINOR;

    static void open(pmixpp::sdk::Services &services)
    {
        pmixpp::ptl::remember_services(services, pmixpp_ptl_usock_component());
    }

    static const void *query(pmixpp::sdk::Services &, int &) { return &usock_module; }

    static void close() { pmixpp::ptl::forget_services(); }
};

PMIXPP_CXX_COMPONENT(ptl, usock, UsockTransport)
