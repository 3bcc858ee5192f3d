// Applying a rank's binding at its start, and --report-bindings.
//
// posix_spawn cannot set the child's affinity, but the child inherits the
// affinity of the thread that spawns it: that thread binds itself to the
// rank's cpus for the call and takes its own mask back afterwards.
// Bindings computed on a topology that is not this machine's (one loaded
// from HWLOC_XMLFILE) are reported and told to the ranks, never applied.
#ifndef PMIXPP_BIN_PMIXRUN_BINDING_H
#define PMIXPP_BIN_PMIXRUN_BINDING_H

#include "placement.h"

#include <sched.h>
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace pmixrun {

// True when the node's topology is this machine's (bindings can be applied).
bool bindings_apply();

class SpawnAffinity {
public:
    // Binds the calling thread to `cpus` (nothing when null or not applied);
    // ok() is false, with why(), when the kernel refused.
    explicit SpawnAffinity(hwloc_const_bitmap_t cpus);
    ~SpawnAffinity();
    SpawnAffinity(const SpawnAffinity &) = delete;
    SpawnAffinity &operator=(const SpawnAffinity &) = delete;

    bool ok() const { return error_.empty(); }
    const std::string &why() const { return error_; }

private:
    bool changed_ = false;
    cpu_set_t saved_{};
    std::string error_;
};

// How many cores pmixrun itself may run on (its affinity: a cgroup or
// taskset narrows it), as mpirun counts slots; its cpus when the topology
// is not this machine's. At least 1.
std::size_t usable_cores();

// One --report-bindings line for a started rank: the cpus its process
// really has (or, when bindings are not applied, those computed for it).
std::string binding_report(const std::string &hostname, uint32_t rank, pid_t pid, hwloc_const_bitmap_t computed);

}  // namespace pmixrun

#endif
