#include "node_cpuset.h"

#include <pmix_server.h>

#include <hwloc.h>

#include <cstdlib>

namespace pmixrun {
namespace {

std::string discover()
{
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return {};
    std::string text;
    if (hwloc_topology_load(topology) == 0) {
        pmix_cpuset_t cpuset;
        cpuset.source = const_cast<char *>("hwloc");
        cpuset.bitmap = const_cast<hwloc_bitmap_s *>(hwloc_topology_get_allowed_cpuset(topology));
        char *made = nullptr;
        if (PMIx_server_generate_cpuset_string(&cpuset, &made) == PMIX_SUCCESS && made != nullptr) text = made;
        std::free(made);
    }
    hwloc_topology_destroy(topology);
    return text;
}

} // namespace

const std::string &node_cpuset()
{
    static const std::string cpuset = discover();
    return cpuset;
}

} // namespace pmixrun
