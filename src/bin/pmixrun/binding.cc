#include "binding.h"

#include "node_cpuset.h"

#include <hwloc/glibc-sched.h>
#include <pthread.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pmixrun {
namespace {

hwloc_topology_t topology()
{
    return static_cast<hwloc_topology_t>(node_topology().topology);
}

std::string list_of(hwloc_const_bitmap_t set)
{
    char *text = nullptr;
    if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "?";
    std::string list = text;
    std::free(text);
    return list;
}

}  // namespace

bool bindings_apply()
{
    return topology() != nullptr && hwloc_topology_is_thissystem(topology());
}

SpawnAffinity::SpawnAffinity(hwloc_const_bitmap_t cpus)
{
    if (cpus == nullptr || !bindings_apply()) return;
    cpu_set_t wanted;
    if (hwloc_cpuset_to_glibc_sched_affinity(topology(), cpus, &wanted, sizeof wanted) != 0 ||
        pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) != 0) {
        error_ = "cannot read or convert the cpus " + list_of(cpus);
        return;
    }
    const int rc = pthread_setaffinity_np(pthread_self(), sizeof wanted, &wanted);
    if (rc != 0) {
        error_ = "cannot bind to cpus " + list_of(cpus) + ": " + std::strerror(rc) +
                 " (are they in pmixrun's own cpuset? try --bind-to none)";
        return;
    }
    changed_ = true;
}

SpawnAffinity::~SpawnAffinity()
{
    if (changed_) (void)pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
}

std::string binding_report(const std::string &hostname, uint32_t rank, pid_t pid, hwloc_const_bitmap_t computed)
{
    const std::string who = "[" + hostname + "] rank " + std::to_string(rank) + " (pid " + std::to_string(pid) + ")";
    if (topology() == nullptr) return who + ": no topology to report on";
    Bitmap seen(hwloc_bitmap_alloc());
    std::string note;
    if (bindings_apply()) {
        cpu_set_t mask;
        if (sched_getaffinity(pid, sizeof mask, &mask) != 0)
            return who + ": its cpus cannot be read: " + std::strerror(errno);
        hwloc_cpuset_from_glibc_sched_affinity(topology(), seen.get(), &mask, sizeof mask);
    } else if (computed != nullptr) {
        hwloc_bitmap_copy(seen.get(), computed);
        note = " (computed on the topology of HWLOC_XMLFILE, not applied)";
    } else {
        hwloc_bitmap_copy(seen.get(), hwloc_topology_get_allowed_cpuset(topology()));
    }
    const bool whole = hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topology()), seen.get());
    const std::string what =
        whole ? "not bound (all cpus " + list_of(seen.get()) + ")" : "bound to cpus " + list_of(seen.get());
    return who + " " + what + note + ": " + binding_map(topology(), seen.get());
}

std::size_t usable_cores()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 1;
    const int cpus = CPU_COUNT(&mask);
    std::size_t cores = 0;
    if (bindings_apply()) {
        Bitmap mine(hwloc_bitmap_alloc());
        hwloc_cpuset_from_glibc_sched_affinity(topology(), mine.get(), &mask, sizeof mask);
        for (hwloc_obj_t core = nullptr;
             (core = hwloc_get_next_obj_by_type(topology(), HWLOC_OBJ_CORE, core)) != nullptr;) {
            if (core->cpuset != nullptr && hwloc_bitmap_intersects(core->cpuset, mine.get())) ++cores;
        }
    }
    if (cores == 0) cores = cpus > 0 ? static_cast<std::size_t>(cpus) : 1;  // no topology: its cpus
    return cores;
}

}  // namespace pmixrun
