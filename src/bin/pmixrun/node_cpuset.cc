#include "node_cpuset.h"

#include <pmix_server.h>

#include <hwloc.h>

#include <cstdlib>

namespace pmixrun {
namespace {

pmix_topology_t discover_topology()
{
    pmix_topology_t found{};
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return found;
    if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        return found;
    }
    found.source = const_cast<char *>("hwloc");
    found.topology = topology;
    return found;
}

std::string discover_cpuset()
{
    const pmix_topology_t &topology = node_topology();
    if (topology.topology == nullptr) return {};
    std::string text;
    pmix_cpuset_t cpuset;
    cpuset.source = const_cast<char *>("hwloc");
    cpuset.bitmap = const_cast<hwloc_bitmap_s *>(
        hwloc_topology_get_allowed_cpuset(static_cast<hwloc_topology_t>(topology.topology)));
    char *made = nullptr;
    if (PMIx_server_generate_cpuset_string(&cpuset, &made) == PMIX_SUCCESS && made != nullptr) text = made;
    std::free(made);
    return text;
}

}  // namespace

const pmix_topology_t &node_topology()
{
    // Never destroyed: the server holds it until pmixrun exits.
    static const pmix_topology_t topology = discover_topology();
    return topology;
}

const std::string &node_cpuset()
{
    static const std::string cpuset = discover_cpuset();
    return cpuset;
}

}  // namespace pmixrun
