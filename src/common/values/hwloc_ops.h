// cpusets and topologies whose source is hwloc ("hwloc", "hwloc:<version>").
#ifndef PMIXPP_COMMON_VALUES_HWLOC_OPS_H
#define PMIXPP_COMMON_VALUES_HWLOC_OPS_H

#include <pmix_common.h>

namespace pmixpp::values {

// The library's own topology (PMIx_Load_topology hands it out to callers):
// destructing a pmix_topology_t that points at it releases only the struct's
// source string, never the shared hwloc topology. nullptr clears it.
void set_library_topology(void *hwloc_topology);

// True when source names hwloc (compared case-insensitively on the prefix).
bool is_hwloc_source(const char *source);

}  // namespace pmixpp::values

#endif
