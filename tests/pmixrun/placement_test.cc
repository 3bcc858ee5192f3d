// Placement and binding: --map-by, --bind-to, --cpus-per-rank,
// --report-bindings and prterun's defaults, checked from inside the ranks.
// On this machine each rank's kernel affinity (sched_getaffinity), its
// PMIX_CPUSET and PMIx_Get_cpuset must agree with the binding asked for,
// and its PMIX_LOCALITY_STRING follow it.
// On hwloc XML topologies of bigger nodes (HWLOC_XMLFILE: 2 packages x 64
// cores; 2 packages x 2 L3 x 16 cores x 2 threads) the bindings are
// computed, told to the ranks as PMIX_CPUSET and reported, not applied.
#include "run_pmixrun.h"

#include <criterion/criterion.h>
#include <hwloc.h>

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace pmixrun_test;

namespace {

std::string g_tmp;

void make_tmp()
{
    g_tmp = scratch_dir();
}
void drop_tmp()
{
    remove_tree(g_tmp);
}

struct Binding {
    std::string cpuset;     // PMIX_CPUSET without its "hwloc:" prefix
    std::string affinity;   // the kernel's, as the rank sees it
    std::string getcpuset;  // PMIx_Get_cpuset's
};

// "binding R cpuset hwloc:C affinity A getcpuset G job NSPACE" lines, by
// rank; with `job_suffix`, only those of the job whose name ends so ("@2":
// the first job spawned).
std::map<int, Binding> bindings_in(const std::string &out, const std::string &job_suffix = "")
{
    std::map<int, Binding> found;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string tag, cpuset_word, cpuset, affinity_word, affinity, get_word, get, job_word, job;
        int rank = -1;
        if (!(words >> tag >> rank >> cpuset_word >> cpuset >> affinity_word >> affinity >> get_word >> get >>
              job_word >> job)) {
            continue;
        }
        if (tag != "binding") continue;
        if (!job_suffix.empty() && (job.size() < job_suffix.size() ||
                                    job.compare(job.size() - job_suffix.size(), job_suffix.size(), job_suffix) != 0)) {
            continue;
        }
        if (cpuset.rfind("hwloc:", 0) == 0) cpuset = cpuset.substr(6);
        found[rank] = Binding{cpuset, affinity, get};
    }
    return found;
}

// pmixrun <args> of the probe printing its binding, on this machine or on
// the topology `xml` describes.
Result bound_job(std::vector<std::string> args, const std::string &xml = "")
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    args.insert(args.end(), {PROBE, "--binding"});
    if (!xml.empty()) ::setenv("HWLOC_XMLFILE", xml.c_str(), 1);
    Result r = run(args);
    ::unsetenv("HWLOC_XMLFILE");
    return r;
}

// pmixrun -n <ranks> of the probe, whose rank 0 spawns `children` more
// probes placed by `map_by` ("-": pmixrun's defaults).
Result spawning_job(int ranks, int children, const char *map_by, const std::string &xml = "")
{
    if (!xml.empty()) ::setenv("HWLOC_XMLFILE", xml.c_str(), 1);
    Result r = run({"--tmpdir", g_tmp, "-n", std::to_string(ranks), PROBE, "--binding", "--spawn",
                    std::to_string(children), map_by});
    ::unsetenv("HWLOC_XMLFILE");
    return r;
}

std::string topology_file(const char *description, const char *name)
{
    const std::string path = g_tmp + "/" + name + ".xml";
    const Result r = run_program(MAKE_TOPOLOGY, {description, path});
    cr_assert_eq(r.code, 0, "make_topology %s: %s", description, r.err.c_str());
    return path;
}

long cpus_online()
{
    return ::sysconf(_SC_NPROCESSORS_ONLN);
}

// The node these cases were written for (this CI machine): cpus 0 and 1,
// each a core of its own.
bool two_single_thread_cores()
{
    return cpus_online() == 2 && usable_cpus() == 2 && usable_cores() == 2;
}

// This machine's ranks: the kernel, PMIX_CPUSET and PMIx_Get_cpuset agree.
void expect_applied(const std::map<int, Binding> &found, const std::vector<std::string> &want)
{
    cr_assert_eq(found.size(), want.size(), "%zu binding lines for %zu ranks", found.size(), want.size());
    for (std::size_t rank = 0; rank < want.size(); ++rank) {
        const Binding &b = found.at(static_cast<int>(rank));
        cr_expect_eq(b.affinity, want[rank], "rank %zu runs on %s, not %s", rank, b.affinity.c_str(),
                     want[rank].c_str());
        cr_expect_eq(b.cpuset, want[rank], "rank %zu: PMIX_CPUSET %s, bound to %s", rank, b.cpuset.c_str(),
                     want[rank].c_str());
        cr_expect_eq(b.getcpuset, want[rank], "rank %zu: PMIx_Get_cpuset %s, bound to %s", rank, b.getcpuset.c_str(),
                     want[rank].c_str());
    }
}

// A topology that is not this machine's: PMIX_CPUSET carries the binding.
void expect_computed(const std::map<int, Binding> &found, const std::vector<std::string> &want)
{
    cr_assert_eq(found.size(), want.size(), "%zu binding lines for %zu ranks", found.size(), want.size());
    for (std::size_t rank = 0; rank < want.size(); ++rank) {
        const std::string &cpuset = found.at(static_cast<int>(rank)).cpuset;
        cr_expect_eq(cpuset, want[rank], "rank %zu: PMIX_CPUSET %s, not %s", rank, cpuset.c_str(), want[rank].c_str());
    }
}

}  // namespace

TestSuite(pmixrun_placement, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun_placement, two_ranks_are_bound_to_a_core_each_by_default)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    const Result r = bound_job({"-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0", "1"});
}

Test(pmixrun_placement, bind_to_none_and_hwthread_and_pe)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    Result r = bound_job({"--bind-to", "none", "-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0-1", "0-1"});
    r = bound_job({"--bind-to", "hwthread", "-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0", "1"});
    r = bound_job({"--map-by", "core:PE=2", "-n", "1"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0-1"});
}

// This machine has one package, L3 and NUMA node over both cpus: bound to
// any of them, a rank has both; mapped by them and bound to a core, one.
// The cpus of this machine's `type` object that holds cpu `cpu`, as hwloc
// lists them ("0-1"). Machines of one kind differ here: one has an L3 that
// both cores share, another an L3 per core.
std::string level_cpus_holding(hwloc_obj_type_t type, unsigned cpu)
{
    hwloc_topology_t topology = nullptr;
    std::string found;
    if (hwloc_topology_init(&topology) == 0 && hwloc_topology_load(topology) == 0) {
        for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_obj_by_type(topology, type, obj)) != nullptr;) {
            if (obj->cpuset == nullptr || !hwloc_bitmap_isset(obj->cpuset, cpu)) continue;
            char *list = nullptr;
            if (hwloc_bitmap_list_asprintf(&list, obj->cpuset) >= 0) found = list;
            std::free(list);
            break;
        }
    }
    if (topology != nullptr) hwloc_topology_destroy(topology);
    return found;
}

Test(pmixrun_placement, every_level_on_this_machine)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    const std::pair<const char *, hwloc_obj_type_t> levels[] = {{"l3cache", HWLOC_OBJ_L3CACHE},
                                                                {"numa", HWLOC_OBJ_NUMANODE},
                                                                {"package", HWLOC_OBJ_PACKAGE},
                                                                {"socket", HWLOC_OBJ_PACKAGE}};
    for (const auto &[level, type] : levels) {
        const std::string rank0 = level_cpus_holding(type, 0), rank1 = level_cpus_holding(type, 1);
        cr_assert(!rank0.empty() && !rank1.empty(), "hwloc finds no %s holding cpus 0 and 1", level);
        Result r = bound_job({"--bind-to", level, "-n", "2"});
        cr_assert_eq(r.code, 0, "--bind-to %s: %s", level, r.err.c_str());
        expect_applied(bindings_in(r.out), {rank0, rank1});
        r = bound_job({"--map-by", level, "--bind-to", "core", "-n", "2"});
        cr_assert_eq(r.code, 0, "--map-by %s: %s", level, r.err.c_str());
        expect_applied(bindings_in(r.out), {"0", "1"});
    }
    const Result r = bound_job({"--map-by", "slot", "-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0", "1"});
}

Test(pmixrun_placement, oversubscription_is_reported_and_nothing_is_bound)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    // The defaults stay quiet; a placement asked for is told why it is not.
    Result r = bound_job({"-n", "3"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.err.empty(), "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0-1", "0-1", "0-1"});
    r = bound_job({"--bind-to", "core", "-n", "3"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.err.find("oversubscribed") != std::string::npos, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0-1", "0-1", "0-1"});
    r = bound_job({"--cpus-per-rank", "2", "-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.err.find("oversubscribed") != std::string::npos, "%s", r.err.c_str());
    r = bound_job({"--report-bindings", "-n", "3"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.err.find("oversubscribed") != std::string::npos, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.err, "not bound"), 3, "%s", r.err.c_str());
}

// The server derives each rank's locality from its PMIX_CPUSET: bound
// ranks are on different cores (here) or packages (the 2 x 64 fixture).
Test(pmixrun_placement, locality_strings_follow_the_binding)
{
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    std::vector<std::string> args = {"--tmpdir", g_tmp, "-n", "2", PROBE, "--locality"};
    if (two_single_thread_cores()) {
        const Result r = run(args);
        cr_assert_eq(r.code, 0, "%s", r.err.c_str());
        cr_expect(r.out.find(":CR0:") != std::string::npos, "%s", r.out.c_str());
        cr_expect(r.out.find(":CR1:") != std::string::npos, "%s", r.out.c_str());
    }
    args[3] = "4";
    ::setenv("HWLOC_XMLFILE", xml.c_str(), 1);
    const Result r = run(args);
    ::unsetenv("HWLOC_XMLFILE");
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.out, "locality SK0:CR0-63:HT0-63"), 2, "%s", r.out.c_str());
    cr_expect_eq(count_lines_with(r.out, "locality SK1:CR64-127:HT64-127"), 2, "%s", r.out.c_str());
}

Test(pmixrun_placement, report_bindings_gives_a_line_per_rank_as_the_kernel_has_it)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    const Result r = bound_job({"--report-bindings", "-n", "2"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.err, "rank 0 (pid"), 1, "%s", r.err.c_str());
    cr_expect(r.err.find("rank 0 (pid") != std::string::npos &&
                  r.err.find("bound to cpus 0: [B/.]") != std::string::npos,
              "%s", r.err.c_str());
    cr_expect(r.err.find("bound to cpus 1: [./B]") != std::string::npos, "%s", r.err.c_str());
}

Test(pmixrun_placement, bad_placement_options_are_named)
{
    struct Case {
        std::vector<std::string> args;
        const char *named;
    };
    const std::vector<Case> cases = {
        {{"--map-by", "board", "true"}, "--map-by board"},
        {{"--map-by", "core:NOLOCAL", "true"}, "'NOLOCAL'"},
        {{"--bind-to", "board", "true"}, "--bind-to board"},
        {{"--cpus-per-rank", "2", "--map-by", "core:PE=3", "true"}, "disagree"},
        {{"--cpus-per-rank", "0", "true"}, "--cpus-per-rank"},
    };
    for (const Case &c : cases) {
        const Result r = run(c.args);
        cr_expect_eq(r.code, 2, "%s: exit %d", c.named, r.code);
        cr_expect(r.err.find(c.named) != std::string::npos, "expected '%s' in: %s", c.named, r.err.c_str());
    }
}

Test(pmixrun_placement, two_packages_of_64_cores_by_prteruns_defaults)
{
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    // Above 2 ranks: round-robin over the packages, bound to the package.
    Result r = bound_job({"--report-bindings", "-n", "4"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-63", "64-127", "0-63", "64-127"});
    cr_expect(r.err.find("not applied") != std::string::npos, "%s", r.err.c_str());
    cr_expect_eq(count_lines_with(r.err, "bound to cpus"), 4, "%s", r.err.c_str());
    // Up to 2 ranks: a core each, in order.
    r = bound_job({"-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "1"});
}

Test(pmixrun_placement, two_packages_of_64_cores_by_each_policy)
{
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    Result r = bound_job({"--bind-to", "core", "-n", "4"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "64", "1", "65"});
    r = bound_job({"--map-by", "core", "--bind-to", "core", "-n", "4"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "1", "2", "3"});
    r = bound_job({"--map-by", "package:PE=4", "-n", "3"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-3", "64-67", "4-7"});
    r = bound_job({"--map-by", "slot", "--cpus-per-rank", "2", "-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-1", "2-3"});
    r = bound_job({"--bind-to", "none", "-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-127", "0-127"});
    r = bound_job({"--bind-to", "l3cache", "-n", "2"}, xml);
    cr_expect_eq(r.code, 1, "%s", r.err.c_str());
    cr_expect(r.err.find("no l3cache") != std::string::npos, "%s", r.err.c_str());
    r = bound_job({"--map-by", "core", "-n", "129"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.err.find("oversubscribed") != std::string::npos, "%s", r.err.c_str());
}

Test(pmixrun_placement, l3_caches_numa_and_hardware_threads)
{
    const std::string xml = topology_file("pack:2 numa:1 l3:2 core:16 pu:2", "smt");
    Result r = bound_job({"--map-by", "l3cache", "--bind-to", "l3cache", "-n", "4"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-31", "32-63", "64-95", "96-127"});
    r = bound_job({"--map-by", "numa", "--bind-to", "numa", "-n", "3"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-63", "64-127", "0-63"});
    // Mapped by core, bound to a thread: each rank on the first thread of
    // its own core. Mapped by thread: the two threads of core 0 first.
    r = bound_job({"--bind-to", "hwthread", "-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "2"});
    r = bound_job({"--map-by", "hwthread", "--bind-to", "hwthread", "-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "1"});
    r = bound_job({"--bind-to", "core", "-n", "2"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-1", "2-3"});
}

// A spawned job is placed too, on the cores the running jobs left free;
// its PMIX_MAPBY is honoured (Open MPI's MPI_Comm_spawn "map_by").
Test(pmixrun_placement, a_spawned_job_takes_the_cores_the_running_ones_left_free)
{
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    Result r = spawning_job(2, 2, "-", xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(has_line(r.out, "spawn SUCCESS"), "%s", r.out.c_str());
    expect_computed(bindings_in(r.out, "@1"), {"0", "1"});
    expect_computed(bindings_in(r.out, "@2"), {"2", "3"});
    r = spawning_job(2, 2, "package", xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out, "@2"), {"0-63", "64-127"});
}

Test(pmixrun_placement, a_spawned_job_on_this_machine_is_bound_when_a_core_is_free)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    Result r = spawning_job(1, 1, "-");
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out, "@1"), {"0"});
    expect_applied(bindings_in(r.out, "@2"), {"1"});
    // Both cores held: the child runs unbound, and the defaults say nothing.
    r = spawning_job(2, 1, "-");
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out, "@1"), {"0", "1"});
    const std::map<int, Binding> child = bindings_in(r.out, "@2");
    cr_assert_eq(child.size(), 1u, "%s", r.out.c_str());
    cr_expect_eq(child.at(0).affinity, "0-1", "%s", r.out.c_str());
    cr_expect(r.err.find("oversubscribed") == std::string::npos, "%s", r.err.c_str());
}

// A spawn is never refused for its placement: a value pmixrun cannot read
// is named and left out; Open MPI 5's own spelling ("PPR:1:NODE:DISPLAY",
// for MPI_Comm_spawn's npernode and display_map) is read.
Test(pmixrun_placement, a_spawns_placement_is_read_as_open_mpi_writes_it_and_never_refuses_it)
{
    Result r = spawning_job(1, 1, "diagonal");
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(has_line(r.out, "spawn SUCCESS"), "%s", r.out.c_str());
    cr_expect_eq(bindings_in(r.out, "@2").size(), 1u, "the child did not run:\n%s", r.out.c_str());
    cr_expect(r.err.find("PMIX_MAPBY diagonal") != std::string::npos, "%s", r.err.c_str());
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    r = spawning_job(1, 1, "PPR:1:NODE:DISPLAY", xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out, "@2"), {"1"});
    cr_expect_eq(count_lines_with(r.err, "bound to cpus"), 1, "DISPLAY reports the child's binding:\n%s",
                 r.err.c_str());
    // Mapped by package with PE=64 beside a rank on core 0: package 0 has 63
    // free cores, so the pair cannot be mapped there; it runs unbound.
    r = spawning_job(1, 2, "package:PE=64", xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out, "@2"), {"0-127", "0-127"});
    cr_expect(r.err.find("no rank is bound") != std::string::npos, "%s", r.err.c_str());
}

// --map-by ppr:N:level: N ranks on each object in turn, bound to a core
// each; without -n, as many as N per object.
Test(pmixrun_placement, ppr_puts_n_ranks_on_each_object)
{
    const std::string xml = topology_file("pack:2 core:64 pu:1", "2x64");
    Result r = bound_job({"--map-by", "ppr:2:package"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "1", "64", "65"});
    r = bound_job({"--map-by", "ppr:2:package:PE=4", "-n", "3"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0-3", "4-7", "64-67"});
    r = bound_job({"--map-by", "ppr:1:package", "-n", "3"}, xml);
    cr_expect_neq(r.code, 0);
    cr_expect(r.err.find("holds 2 ranks") != std::string::npos, "%s", r.err.c_str());
    // mpirun's words in any case, its qualifiers, and NOOVERSUBSCRIBE.
    r = bound_job({"--map-by", "PPR:1:Package", "--bind-to", "CORE:overload-allowed"}, xml);
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_computed(bindings_in(r.out), {"0", "64"});
    r = bound_job({"--map-by", "core:NOOVERSUBSCRIBE", "-n", "129"}, xml);
    cr_expect_neq(r.code, 0);
    cr_expect(r.err.find("NOOVERSUBSCRIBE") != std::string::npos, "%s", r.err.c_str());
    for (const char *bad : {"ppr:0:core", "ppr:2", "ppr:2:socket:PE=0", "ppr:x:core", "ppr:1:rack", "ppr:1:slot"}) {
        r = bound_job({"--map-by", bad});
        cr_expect_eq(r.code, 2, "--map-by %s: %d", bad, r.code);
        cr_expect(r.err.find(bad) != std::string::npos, "%s", r.err.c_str());
    }
}

Test(pmixrun_placement, ppr_on_this_machine_sizes_the_job_by_its_cores)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    const Result r = bound_job({"--map-by", "ppr:1:core"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    expect_applied(bindings_in(r.out), {"0", "1"});
}
