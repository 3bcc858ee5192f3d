// This node's topology and the cpuset processes may run on (hwloc's allowed
// cpuset, in the "hwloc:<list>" form of PMIx_server_generate_cpuset_string).
// A process that is not bound (placement.h) gets the whole of it as its
// PMIX_CPUSET, a bound one its binding's cpus; the server derives each
// process's PMIX_LOCALITY_STRING from it, with the topology pmixrun hands it
// (PMIX_TOPOLOGY2): the node is discovered once per pmixrun, not once here
// and once in the server. HWLOC_XMLFILE makes it another node's (tests).
#ifndef PMIXPP_BIN_PMIXRUN_NODE_CPUSET_H
#define PMIXPP_BIN_PMIXRUN_NODE_CPUSET_H

#include <pmix_common.h>

#include <string>

namespace pmixrun {

// Loaded on first call and kept for pmixrun's lifetime; its topology is
// nullptr when hwloc cannot load one.
const pmix_topology_t &node_topology();

// Empty when hwloc cannot tell (then no PMIX_CPUSET is registered).
// Computed once; call after PMIx_server_init.
const std::string &node_cpuset();

}  // namespace pmixrun

#endif
