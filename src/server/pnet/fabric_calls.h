// PMIx_Fabric_register / _update / _deregister across the pnet components
// (pnet API 1.2). The first active component, best first, whose table has
// register_fabric and that knows a fabric describes it; update and
// deregister go back to that component by name. Progress thread only; the
// hooks do not block. A component that fails is named in one line and the
// next one is asked.
#ifndef PMIXPP_SERVER_PNET_FABRIC_CALLS_H
#define PMIXPP_SERVER_PNET_FABRIC_CALLS_H

#include "common/wire/messages.h"

#include <pmix_common.h>

#include <cstddef>
#include <string>

namespace pmixpp::server {
class Server;
}

namespace pmixpp::server::pnet {

// A fabric as one component described it.
struct FabricDescription {
    std::string component;   // who answered ("simfabric")
    std::string identifier;  // its PMIX_FABRIC_IDENTIFIER (the component's name when it gave none)
    wire::InfoArray info;
};

// PMIX_SUCCESS with *description_p; PMIX_ERR_NOT_FOUND when no component
// knows a fabric (none has the hook, none matched the directives, or every
// one that tried failed).
pmix_status_t register_fabric(Server &server, const pmix_info_t directives[], std::size_t ndirs,
                              FabricDescription *description_p);
// The current description of a fabric `component` registered.
// PMIX_ERR_NOT_FOUND when that component is no longer active or has no
// update hook; the component's error otherwise.
pmix_status_t update_fabric(Server &server, const std::string &component, const std::string &identifier,
                            wire::InfoArray *info_p);
// One registration of that fabric ended.
void deregister_fabric(Server &server, const std::string &component, const std::string &identifier);

// Whether any active component has register_fabric (for the line that says
// why nobody answered).
bool any_component_knows_fabrics(const Server &server);

}  // namespace pmixpp::server::pnet

#endif
