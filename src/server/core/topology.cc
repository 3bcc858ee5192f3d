#include "server/core/topology.h"

#include "common/runtime/log.h"
#include "common/values/hwloc_ops.h"

namespace pmixpp::server {

void setup_topology(Server &server)
{
    const pmix_topology_t *given = server.config.topology;
    if (given != nullptr && given->topology != nullptr && values::is_hwloc_source(given->source)) {
        server.topology = static_cast<hwloc_topology_t>(given->topology);
        server.own_topology = false;
        return;
    }
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return;
    if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        runtime::log_warning("server", "cannot load the node topology with hwloc "
                                       "(locality strings will be missing; pass PMIX_TOPOLOGY2)");
        return;
    }
    server.topology = topology;
    server.own_topology = true;
}

}  // namespace pmixpp::server
