// Subscribes every subsystem of the server to the hooks it needs
// (state/hooks.h), in the order the table in subsystems.cc gives.
#ifndef PMIXPP_SERVER_ENGINE_SUBSYSTEMS_H
#define PMIXPP_SERVER_ENGINE_SUBSYSTEMS_H

#include "server/state/hooks.h"

namespace pmixpp::server {

void subscribe_subsystems(Hooks &hooks);

}  // namespace pmixpp::server

#endif
