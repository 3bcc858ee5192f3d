// The fabrics registered with this server (PMIx_Fabric_register of clients,
// tools and the host itself), by the index the server gave each: who
// answered the registration, so that update and deregister go back to it,
// and whose it is, so that nobody else updates or ends it.
#ifndef PMIXPP_SERVER_REQUESTS_FABRIC_REGISTRY_H
#define PMIXPP_SERVER_REQUESTS_FABRIC_REGISTRY_H

#include "server/state/registry.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace pmixpp::server {

// Registrations one connection (or the host) may hold: each costs the
// answering component state, and a requester that never deregisters must
// not grow the server without end.
inline constexpr std::size_t kMaxFabricsPerRequester = 64;

struct RegisteredFabric {
    std::string name;            // the description's PMIX_FABRIC_IDENTIFIER
    std::string component;       // the pnet component that answered; empty: the host
    std::size_t host_index = 0;  // the index the host's answer gave (update asks it by that)
    PeerId owner = kNoPeer;      // kNoPeer: the host process itself
};

struct FabricRegistry {
    std::map<uint64_t, RegisteredFabric> fabrics;
    uint64_t next_index = 1;        // 0 is what PMIX_FABRIC_STATIC_INIT holds: never a registration
    bool said_unavailable = false;  // the line saying why nobody answers was printed
};

}  // namespace pmixpp::server

#endif
