// The cpuset processes of this node may run on (hwloc's allowed cpuset, in
// the "hwloc:<list>" form of PMIx_server_generate_cpuset_string). pmixrun
// does not bind: every process gets the whole of it as its PMIX_CPUSET, and
// the server derives each process's PMIX_LOCALITY_STRING from it.
#ifndef PMIXPP_BIN_PMIXRUN_NODE_CPUSET_H
#define PMIXPP_BIN_PMIXRUN_NODE_CPUSET_H

#include <string>

namespace pmixrun {

// Empty when hwloc cannot tell (then no PMIX_CPUSET is registered).
// Computed once; call after PMIx_server_init.
const std::string &node_cpuset();

} // namespace pmixrun

#endif
