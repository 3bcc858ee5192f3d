// Where the ranks of pmixrun's job run: mpirun's --map-by, --bind-to and
// --cpus-per-rank, computed on the node's hwloc topology.
//
// - Mapping hands each rank `cpus_per_rank` units (cores, or hardware
//   threads with --map-by/--bind-to hwthread): by slot or core, in order;
//   by l3cache, numa or package, round-robin over those objects (rank 0 on
//   the first, rank 1 on the second, ...), each rank taking the next free
//   units of its object; by ppr:N:level, N ranks on each object of that level
//   in turn (ranks 0..N-1 on the first), the job holding N per object when
//   -n is not given.
// - Binding gives each rank the cpus of its units (hwthread: one thread of
//   each unit; core: whole cores) or of the objects holding them (l3cache,
//   numa, package).
// - Defaults are prterun's: map and bind by core up to 2 ranks, by package
//   above; mapped by a level without a binding, bound to that level (as
//   mpirun); with several cpus per rank, bound to those cores.
// - Units already mapped to other running jobs (`held`) are not handed out
//   again: a job spawned beside the first takes the cores it left free; when
//   they cannot hold the mapping, the job runs unbound.
// - More units wanted than the node has free (oversubscribed): nothing is bound
//   rather than stacking ranks on one core; the notice says so when the
//   user asked for a placement or --report-bindings (the defaults stay
//   quiet otherwise).
#ifndef PMIXPP_BIN_PMIXRUN_PLACEMENT_H
#define PMIXPP_BIN_PMIXRUN_PLACEMENT_H

#include <hwloc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pmixrun {

enum class Level { hwthread, core, l3cache, numa, package, node };

struct PlacementOptions {
    std::optional<Level> map_by;           // --map-by (slot is core); default as prterun
    std::optional<Level> bind_to;          // --bind-to; default as prterun
    bool bind_none = false;                // --bind-to none
    uint32_t cpus_per_rank = 0;            // --cpus-per-rank or :PE=n; 0: one
    uint32_t per_object = 0;               // ppr:N:level: N ranks per object of map_by; 0: not ppr
    bool refuse_oversubscription = false;  // :NOOVERSUBSCRIBE: an error rather than unbound ranks
    bool report = false;                   // --report-bindings
};

// "core", "package:PE=2", "ppr:2:package", ... in any case: false with
// *error_p naming the choices (placement_parse.cc).
bool parse_map_by(const std::string &text, PlacementOptions *options_p, std::string *error_p);
bool parse_bind_to(const std::string &text, PlacementOptions *options_p, std::string *error_p);
const char *level_name(Level level);

struct BitmapFree {
    void operator()(hwloc_bitmap_s *bitmap) const { hwloc_bitmap_free(bitmap); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapFree>;

struct JobPlacement {
    std::vector<Bitmap> cpusets;  // one per rank; empty: the ranks run unbound
    std::vector<Bitmap> mapped;   // the cpus of each rank's units (held while it runs)
    std::string notice;           // one line for the user (why unbound), or empty
};

// How many ranks ppr:N:level puts on this node (N per object); 0 when the
// options are not ppr or the topology lacks the level.
uint32_t ppr_ranks(hwloc_topology_t topology, const PlacementOptions &options);

// False with *error_p when the request cannot be met on this topology (a
// level it lacks, or units that no object can give). `held` (may be null):
// cpus whose units other running jobs were mapped to.
bool place_job(hwloc_topology_t topology, const PlacementOptions &options, uint32_t nprocs, hwloc_const_bitmap_t held,
               JobPlacement *placement_p, std::string *error_p);

// "package 0 core 3" style description of a cpuset, and a map of the node's
// cores ([B/./.][./.]: B where the set holds a thread of that core), per
// package, as mpirun's --report-bindings draws it.
std::string binding_map(hwloc_topology_t topology, hwloc_const_bitmap_t cpuset);

}  // namespace pmixrun

#endif
