#include "placement.h"

#include <algorithm>
#include <cstdlib>

namespace pmixrun {
namespace {

hwloc_obj_type_t object_type(Level level)
{
    switch (level) {
    case Level::hwthread: return HWLOC_OBJ_PU;
    case Level::core: return HWLOC_OBJ_CORE;
    case Level::l3cache: return HWLOC_OBJ_L3CACHE;
    case Level::numa: return HWLOC_OBJ_NUMANODE;
    case Level::package: return HWLOC_OBJ_PACKAGE;
    case Level::node: return HWLOC_OBJ_MACHINE;
    }
    return HWLOC_OBJ_CORE;
}

// The objects of a level within the allowed cpus, in logical order.
std::vector<hwloc_obj_t> objects_of(hwloc_topology_t topology, hwloc_obj_type_t type)
{
    std::vector<hwloc_obj_t> found;
    hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(topology);
    for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_obj_by_type(topology, type, obj)) != nullptr;) {
        if (obj->cpuset != nullptr && hwloc_bitmap_intersects(obj->cpuset, allowed)) found.push_back(obj);
    }
    return found;
}

// A node without core objects (some virtual machines) counts its threads.
// Units that share a cpu with `held` are taken.
std::vector<hwloc_obj_t> units_of(hwloc_topology_t topology, bool hwthreads, hwloc_const_bitmap_t held)
{
    std::vector<hwloc_obj_t> units;
    if (!hwthreads) units = objects_of(topology, HWLOC_OBJ_CORE);
    if (units.empty()) units = objects_of(topology, HWLOC_OBJ_PU);
    if (held == nullptr || hwloc_bitmap_iszero(held)) return units;
    std::vector<hwloc_obj_t> free;
    for (hwloc_obj_t unit : units) {
        if (!hwloc_bitmap_intersects(unit->cpuset, held)) free.push_back(unit);
    }
    return free;
}

Bitmap cpus_of(const std::vector<hwloc_obj_t> &units)
{
    Bitmap set(hwloc_bitmap_alloc());
    for (hwloc_obj_t unit : units) hwloc_bitmap_or(set.get(), set.get(), unit->cpuset);
    return set;
}

struct Resolved {
    Level map_by;
    Level bind_to;
    bool bind_none;
    uint32_t per_rank;
};

Resolved resolve(const PlacementOptions &options, uint32_t nprocs)
{
    const Level fallback = nprocs <= 2 ? Level::core : Level::package;
    // Mapped by a level and not told how to bind: bound to that level, as
    // mpirun does (--map-by package -n 2 binds each rank to its package).
    const Level map_by = options.map_by.value_or(fallback);
    // ppr binds each rank to its core (thread, per hwthread), as mpirun does;
    // by node (this one), as without a mapping.
    const Level bind_default = options.per_object > 0  ? (map_by == Level::hwthread ? Level::hwthread : Level::core)
                               : map_by == Level::node ? fallback
                                                       : map_by;
    Resolved r{map_by, options.bind_to.value_or(bind_default), options.bind_none,
               options.cpus_per_rank > 0 ? options.cpus_per_rank : 1};
    // Several cpus per rank (PE=n) are bound as those cores, as mpirun does.
    if (r.per_rank > 1 && !options.bind_to) r.bind_to = Level::core;
    return r;
}

// Round-robin over the mapping objects; each rank takes per_rank free units
// of its object, or of the next one that has them.
bool map_units(const std::vector<hwloc_obj_t> &units, const std::vector<hwloc_obj_t> &objects, uint32_t nprocs,
               uint32_t per_rank, std::vector<std::vector<hwloc_obj_t>> *ranks_p, std::string *error_p)
{
    std::vector<std::vector<hwloc_obj_t>> free(objects.size());
    for (hwloc_obj_t unit : units) {
        for (std::size_t i = 0; i < objects.size(); ++i) {
            if (hwloc_bitmap_isincluded(unit->cpuset, objects[i]->cpuset)) {
                free[i].push_back(unit);
                break;
            }
        }
    }
    std::vector<std::size_t> next(objects.size(), 0);
    ranks_p->assign(nprocs, {});
    for (uint32_t rank = 0; rank < nprocs; ++rank) {
        bool placed = false;
        for (std::size_t step = 0; step < objects.size() && !placed; ++step) {
            const std::size_t i = (rank + step) % objects.size();
            if (free[i].size() - next[i] < per_rank) continue;
            for (uint32_t k = 0; k < per_rank; ++k) (*ranks_p)[rank].push_back(free[i][next[i]++]);
            placed = true;
        }
        if (!placed) {
            *error_p = "no " + std::string(hwloc_obj_type_string(objects.front()->type)) + " has " +
                       std::to_string(per_rank) + " free cpus left for rank " + std::to_string(rank) +
                       " (ask for fewer --cpus-per-rank, or --map-by core)";
            return false;
        }
    }
    return true;
}

// ppr: `per_object` ranks on each object in turn, each taking per_rank free
// units of its object.
bool map_per_object(const std::vector<hwloc_obj_t> &units, const std::vector<hwloc_obj_t> &objects, uint32_t nprocs,
                    uint32_t per_object, uint32_t per_rank, std::vector<std::vector<hwloc_obj_t>> *ranks_p,
                    std::string *error_p)
{
    ranks_p->assign(nprocs, {});
    uint32_t rank = 0;
    for (hwloc_obj_t object : objects) {
        std::vector<hwloc_obj_t> free;
        for (hwloc_obj_t unit : units) {
            if (hwloc_bitmap_isincluded(unit->cpuset, object->cpuset)) free.push_back(unit);
        }
        std::size_t next = 0;
        for (uint32_t k = 0; k < per_object && rank < nprocs; ++k, ++rank) {
            if (free.size() - next < per_rank) {
                *error_p = std::string(hwloc_obj_type_string(object->type)) + " " +
                           std::to_string(object->logical_index) + " has too few free cpus for " +
                           std::to_string(per_object) + " ranks of " + std::to_string(per_rank) +
                           " (ask for fewer per object, or fewer --cpus-per-rank)";
                return false;
            }
            for (uint32_t u = 0; u < per_rank; ++u) (*ranks_p)[rank].push_back(free[next++]);
        }
    }
    return true;
}

// The cpus a rank is bound to: its units at the binding level, or the
// objects of that level that hold them.
Bitmap bound_cpus(hwloc_topology_t topology, const std::vector<hwloc_obj_t> &units, Level bind_to)
{
    Bitmap set(hwloc_bitmap_alloc());
    for (hwloc_obj_t unit : units) {
        if (bind_to == Level::hwthread) {
            hwloc_obj_t pu = unit->type == HWLOC_OBJ_PU
                                 ? unit
                                 : hwloc_get_obj_inside_cpuset_by_type(topology, unit->cpuset, HWLOC_OBJ_PU, 0);
            if (pu != nullptr) hwloc_bitmap_or(set.get(), set.get(), pu->cpuset);
            continue;
        }
        if (bind_to == Level::core) {
            hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_CORE, unit);
            hwloc_bitmap_or(set.get(), set.get(), (core != nullptr ? core : unit)->cpuset);
            continue;
        }
        for (hwloc_obj_t obj : objects_of(topology, object_type(bind_to))) {
            if (hwloc_bitmap_isincluded(unit->cpuset, obj->cpuset)) hwloc_bitmap_or(set.get(), set.get(), obj->cpuset);
        }
    }
    hwloc_bitmap_and(set.get(), set.get(), hwloc_topology_get_allowed_cpuset(topology));
    return set;
}

}  // namespace

const char *level_name(Level level)
{
    switch (level) {
    case Level::hwthread: return "hwthread";
    case Level::core: return "core";
    case Level::l3cache: return "l3cache";
    case Level::numa: return "numa";
    case Level::package: return "package";
    case Level::node: return "node";
    }
    return "core";
}

bool place_job(hwloc_topology_t topology, const PlacementOptions &options, uint32_t nprocs, hwloc_const_bitmap_t held,
               JobPlacement *placement_p, std::string *error_p)
{
    JobPlacement placement;
    const Resolved r = resolve(options, nprocs);
    if (topology == nullptr || nprocs == 0) {
        *placement_p = std::move(placement);
        return true;
    }
    if (r.bind_none && !options.map_by && options.cpus_per_rank == 0) {
        *placement_p = std::move(placement);
        return true;
    }
    // Ranks are handed hardware threads only when mapped by them; bound to
    // one, a rank mapped by core gets its core's first thread.
    const bool by_thread = r.map_by == Level::hwthread;
    const std::vector<hwloc_obj_t> units = units_of(topology, by_thread, held);
    const bool others_hold = held != nullptr && !hwloc_bitmap_iszero(held);
    for (Level level : {r.map_by, r.bind_to}) {
        if (level == Level::hwthread || level == Level::core || (level == r.bind_to && r.bind_none)) continue;
        if (objects_of(topology, object_type(level)).empty()) {
            *error_p =
                std::string("this node's topology has no ") + level_name(level) + " (choose core, numa or package)";
            return false;
        }
    }
    if (options.per_object > 0) {
        const std::size_t objects = objects_of(topology, object_type(r.map_by)).size();
        const uint64_t capacity = static_cast<uint64_t>(options.per_object) * objects;
        if (nprocs > capacity) {
            *error_p = "--map-by ppr:" + std::to_string(options.per_object) + ":" + level_name(r.map_by) + " holds " +
                       std::to_string(capacity) + (capacity == 1 ? " rank" : " ranks") + " on this node (" +
                       std::to_string(objects) + " " + level_name(r.map_by) + "), not " + std::to_string(nprocs) +
                       " (leave -n out to run that many, or raise N)";
            return false;
        }
    }
    const uint64_t wanted = static_cast<uint64_t>(nprocs) * r.per_rank;
    if (units.empty() || wanted > units.size()) {
        // Said only when the user asked for a placement or its report: a laptop running
        // -n 8 on 4 cores with the defaults just runs unbound, as with mpirun.
        const bool asked = options.map_by || options.bind_to || options.cpus_per_rank > 0 || options.report;
        if (!asked) {
            *placement_p = std::move(placement);
            return true;
        }
        const std::string unit = by_thread ? "hardware threads" : "cores";
        const std::string need = std::to_string(nprocs) + " ranks of " + std::to_string(r.per_rank) + " need " +
                                 std::to_string(wanted) + " " + unit + ", more than this node's " +
                                 std::to_string(units.size()) + (others_hold ? " left free by the running jobs" : "");
        if (options.refuse_oversubscription) {
            *error_p = need + ", and NOOVERSUBSCRIBE was given (ask for fewer ranks, or drop it)";
            return false;
        }
        placement.notice = need + ": oversubscribed, so no rank is bound";
        *placement_p = std::move(placement);
        return true;
    }
    std::vector<std::vector<hwloc_obj_t>> ranks;
    std::string why;
    bool mapped = true;
    if (options.per_object > 0) {
        mapped = map_per_object(units, objects_of(topology, object_type(r.map_by)), nprocs, options.per_object,
                                r.per_rank, &ranks, &why);
    } else if (r.map_by == Level::core || r.map_by == Level::hwthread) {
        // By unit: rank r takes units r*per_rank onwards.
        ranks.assign(nprocs, {});
        for (uint32_t rank = 0; rank < nprocs; ++rank) {
            for (uint32_t k = 0; k < r.per_rank; ++k) ranks[rank].push_back(units[rank * r.per_rank + k]);
        }
    } else {
        mapped = map_units(units, objects_of(topology, object_type(r.map_by)), nprocs, r.per_rank, &ranks, &why);
    }
    if (!mapped && !others_hold) {
        *error_p = why;
        return false;
    }
    if (!mapped) {
        // The node could hold it; the cores left free cannot.
        placement.notice = why + ", with the cores the running jobs hold: no rank is bound";
        *placement_p = std::move(placement);
        return true;
    }
    if (r.bind_none) {
        *placement_p = std::move(placement);
        return true;
    }
    for (const auto &rank_units : ranks) {
        placement.cpusets.push_back(bound_cpus(topology, rank_units, r.bind_to));
        placement.mapped.push_back(cpus_of(rank_units));
    }
    *placement_p = std::move(placement);
    return true;
}

uint32_t ppr_ranks(hwloc_topology_t topology, const PlacementOptions &options)
{
    if (topology == nullptr || options.per_object == 0 || !options.map_by) return 0;
    const uint64_t ranks =
        static_cast<uint64_t>(options.per_object) * objects_of(topology, object_type(*options.map_by)).size();
    return static_cast<uint32_t>(std::min<uint64_t>(ranks, UINT32_MAX));
}

std::string binding_map(hwloc_topology_t topology, hwloc_const_bitmap_t cpuset)
{
    std::string map;
    std::vector<hwloc_obj_t> packages = objects_of(topology, HWLOC_OBJ_PACKAGE);
    if (packages.empty()) packages.push_back(hwloc_get_root_obj(topology));
    for (hwloc_obj_t package : packages) {
        map += '[';
        const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topology, package->cpuset, HWLOC_OBJ_CORE);
        for (int i = 0; i < cores; ++i) {
            hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(topology, package->cpuset, HWLOC_OBJ_CORE, i);
            if (i > 0) map += '/';
            map += hwloc_bitmap_intersects(core->cpuset, cpuset) ? 'B' : '.';
        }
        map += ']';
    }
    return map;
}

}  // namespace pmixrun
