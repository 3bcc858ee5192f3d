// PMIX_LOCALITY_STRING of a process from its cpuset, in the notation
// OpenPMIx clients (Open MPI) parse: for each level of the topology tree, from
// the top, "<tag><logical indices>" of the objects the cpuset overlaps, with
// tags SK (package), L3/L2/L1 (caches), CR (core), HT (PU), joined by ':'
// (e.g. "SK0:L30:L20:L10:CR0:HT0-1"). NUMA nodes prefix "NM" when the
// topology places them in the tree.
#ifndef PMIXPP_SERVER_JOBDATA_LOCALITY_H
#define PMIXPP_SERVER_JOBDATA_LOCALITY_H

#include <hwloc.h>

#include <string>

namespace pmixpp::jobdata {

// cpuset: a hwloc list ("0-3,8") or mask ("0x0000000f") string. Empty when
// the text does not parse or overlaps nothing in `topology`.
std::string locality_string(hwloc_topology_t topology, const char *cpuset);

}  // namespace pmixpp::jobdata

#endif
