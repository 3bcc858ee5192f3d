// PMIx_Load_topology in a singleton: the library's own topology, discovered
// once, which a caller's PMIx_Topology_destruct does not destroy. Cpuset
// strings, the binding of a process or thread, and relative locality.
#include <criterion/criterion.h>

#include <hwloc.h>
#include <pmix.h>
#include <pmix_server.h>

#include <pthread.h>
#include <sched.h>

#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

void clear_server_env()
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                             "PMIX_SERVER_URI2", "PMIX_SERVER_URI21", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
}

int pu_count(void *topology)
{
    return hwloc_get_nbobjs_by_type(static_cast<hwloc_topology_t>(topology), HWLOC_OBJ_PU);
}

}  // namespace

Test(client_topology, singleton_loads_a_topology_that_outlives_destruct)
{
    clear_server_env();
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    pmix_topology_t topo;
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    cr_assert_eq(PMIx_Load_topology(&topo), PMIX_SUCCESS);
    cr_assert_not_null(topo.topology);
    cr_assert_not_null(topo.source);
    cr_expect_eq(strncmp(topo.source, "hwloc", 5), 0, "source \"%s\"", topo.source);
    void *first = topo.topology;
    cr_expect_geq(pu_count(first), 1);
    PMIx_Topology_destruct(&topo);

    // Still the same, still usable.
    pmix_topology_t again;
    PMIX_TOPOLOGY_CONSTRUCT(&again);
    cr_assert_eq(PMIx_Load_topology(&again), PMIX_SUCCESS);
    cr_expect_eq(again.topology, first, "loaded once per process");
    cr_expect_geq(pu_count(again.topology), 1);
    PMIx_Topology_destruct(&again);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_topology, other_sources_are_not_supported)
{
    pmix_topology_t topo;
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    char source[] = "netloc";
    topo.source = source;
    cr_expect_eq(PMIx_Load_topology(&topo), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_null(topo.topology);
    cr_expect_eq(PMIx_Load_topology(nullptr), PMIX_ERR_BAD_PARAM);
}

Test(client_cpuset, parses_what_the_server_writes)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cr_assert_eq(PMIx_Parse_cpuset_string("hwloc:0-2,5", &cpuset), PMIX_SUCCESS);
    cr_expect_str_eq(cpuset.source, "hwloc");
    auto bitmap = static_cast<hwloc_const_bitmap_t>(cpuset.bitmap);
    cr_assert_not_null(bitmap);
    cr_expect_eq(hwloc_bitmap_weight(bitmap), 4);
    cr_expect(hwloc_bitmap_isset(bitmap, 0) && hwloc_bitmap_isset(bitmap, 2) && hwloc_bitmap_isset(bitmap, 5));
    cr_expect(!hwloc_bitmap_isset(bitmap, 3));

    // And back: the server's writer gives the same text.
    char *text = nullptr;
    cr_assert_eq(PMIx_server_generate_cpuset_string(&cpuset, &text), PMIX_SUCCESS);
    cr_expect_str_eq(text, "hwloc:0-2,5");
    free(text);
    PMIx_Cpuset_destruct(&cpuset);
    cr_expect_null(cpuset.bitmap);
}

Test(client_cpuset, refuses_strings_it_cannot_read)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cr_expect_eq(PMIx_Parse_cpuset_string("0-3", &cpuset), PMIX_ERR_BAD_PARAM, "no source");
    cr_expect_eq(PMIx_Parse_cpuset_string("hwloc:zero", &cpuset), PMIX_ERR_BAD_PARAM, "not a list");
    // hwloc would read these: an endless set, a sign, half a gigabyte of bits.
    for (const char *unbounded :
         {"hwloc:4-", "hwloc:0+-3,6", "hwloc:0-4000000000", "hwloc:65536", "hwloc:3-1", "hwloc:1,,2", "hwloc: 1",
          // hwloc reads a leading zero as octal and prints back "hwloc:-65" (found by the fuzzer)
          "hwloc:08-65", "hwloc:1,010"}) {
        cr_expect_eq(PMIx_Parse_cpuset_string(unbounded, &cpuset), PMIX_ERR_BAD_PARAM, "%s", unbounded);
    }
    cr_expect_eq(PMIx_Parse_cpuset_string("hwloc:65535", &cpuset), PMIX_SUCCESS, "the largest cpu index");
    PMIx_Cpuset_destruct(&cpuset);
    cr_expect_eq(PMIx_Parse_cpuset_string("hwloc:0,10-12", &cpuset), PMIX_SUCCESS, "zero alone is a number");
    PMIx_Cpuset_destruct(&cpuset);
    cr_expect_eq(PMIx_Parse_cpuset_string("netloc:0-3", &cpuset), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(PMIx_Parse_cpuset_string(nullptr, &cpuset), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Parse_cpuset_string("hwloc:0", nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_null(cpuset.bitmap, "nothing handed out on a refusal");
    cr_expect_null(cpuset.source);
}

// The binding hwloc reports is the one the kernel applies.
Test(client_cpuset, process_binding_is_the_affinity_mask)
{
    cpu_set_t affinity;
    CPU_ZERO(&affinity);
    cr_assert_eq(sched_getaffinity(0, sizeof affinity, &affinity), 0);
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cr_assert_eq(PMIx_Get_cpuset(&cpuset, PMIX_CPUBIND_PROCESS), PMIX_SUCCESS);
    cr_expect_str_eq(cpuset.source, "hwloc");
    auto bitmap = static_cast<hwloc_const_bitmap_t>(cpuset.bitmap);
    cr_assert_not_null(bitmap);
    cr_expect_eq(hwloc_bitmap_weight(bitmap), CPU_COUNT(&affinity));
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        cr_expect_eq(hwloc_bitmap_isset(bitmap, static_cast<unsigned>(cpu)) != 0, CPU_ISSET(cpu, &affinity) != 0,
                     "cpu %d", cpu);
    }
    PMIx_Cpuset_destruct(&cpuset);
}

// A thread bound to one cpu sees that cpu alone; the process envelope is wider.
Test(client_cpuset, thread_binding_is_the_thread_s_own)
{
    cpu_set_t affinity;
    CPU_ZERO(&affinity);
    cr_assert_eq(sched_getaffinity(0, sizeof affinity, &affinity), 0);
    int last = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &affinity)) last = cpu;
    }
    cr_assert_geq(last, 0);
    int weight = -1;
    bool has_last = false;
    std::thread bound([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(last, &one);
        if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) return;
        pmix_cpuset_t cpuset;
        PMIX_CPUSET_CONSTRUCT(&cpuset);
        if (PMIx_Get_cpuset(&cpuset, PMIX_CPUBIND_THREAD) != PMIX_SUCCESS) return;
        auto bitmap = static_cast<hwloc_const_bitmap_t>(cpuset.bitmap);
        weight = hwloc_bitmap_weight(bitmap);
        has_last = hwloc_bitmap_isset(bitmap, static_cast<unsigned>(last)) != 0;
        PMIx_Cpuset_destruct(&cpuset);
    });
    bound.join();
    cr_expect_eq(weight, 1, "the bound thread's cpuset holds one cpu");
    cr_expect(has_last, "and it is cpu %d", last);
}

Test(client_cpuset, get_refuses_unknown_envelopes)
{
    pmix_cpuset_t cpuset;
    PMIX_CPUSET_CONSTRUCT(&cpuset);
    cr_expect_eq(PMIx_Get_cpuset(&cpuset, 7), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Get_cpuset(nullptr, PMIX_CPUBIND_PROCESS), PMIX_ERR_BAD_PARAM);
    cr_expect_null(cpuset.bitmap);
}

// python3-pmix passes a cpuset straight off the stack: nothing in it is read.
Test(client_cpuset, get_only_writes_the_cpuset)
{
    pmix_cpuset_t cpuset;
    std::memset(&cpuset, 0xa5, sizeof cpuset);
    cr_assert_eq(PMIx_Get_cpuset(&cpuset, PMIX_CPUBIND_PROCESS), PMIX_SUCCESS);
    cr_expect_str_eq(cpuset.source, "hwloc");
    cr_expect_geq(hwloc_bitmap_weight(static_cast<hwloc_const_bitmap_t>(cpuset.bitmap)), 1);
    PMIx_Cpuset_destruct(&cpuset);
}

Test(client_locality, shares_the_levels_whose_objects_overlap)
{
    pmix_locality_t locality = 0;
    cr_assert_eq(PMIx_Get_relative_locality("SK0:L30:L20:L10:CR0:HT0", "SK0:L30:L21:L11:CR1:HT2", &locality),
                 PMIX_SUCCESS);
    cr_expect_eq(locality, PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE | PMIX_LOCALITY_SHARE_L3CACHE);

    // Lists overlap when any object is in both; OpenPMIx's "hwloc:" prefix is read too.
    cr_assert_eq(PMIx_Get_relative_locality("hwloc:NM0:SK0:CR0-1:HT0-3", "NM0:SK0:CR1:HT3", &locality), PMIX_SUCCESS);
    cr_expect_eq(locality, PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_NUMA | PMIX_LOCALITY_SHARE_PACKAGE |
                               PMIX_LOCALITY_SHARE_CORE | PMIX_LOCALITY_SHARE_HWTHREAD);

    cr_assert_eq(PMIx_Get_relative_locality("SK0:CR0", "SK1:CR4", &locality), PMIX_SUCCESS);
    cr_expect_eq(locality, PMIX_LOCALITY_SHARE_NODE, "different packages share only the node");
}

Test(client_locality, refuses_what_is_not_the_notation)
{
    pmix_locality_t locality = 0x1234;
    cr_expect_eq(PMIx_Get_relative_locality("SK0:XX1", "SK0", &locality), PMIX_ERR_BAD_PARAM, "unknown level");
    cr_expect_eq(PMIx_Get_relative_locality("SK0", "CR", &locality), PMIX_ERR_BAD_PARAM, "no objects");
    cr_expect_eq(PMIx_Get_relative_locality("SK0", "CRx", &locality), PMIX_ERR_BAD_PARAM, "not a list");
    cr_expect_eq(PMIx_Get_relative_locality("SK0", "CR0-", &locality), PMIX_ERR_BAD_PARAM, "endless");
    cr_expect_eq(PMIx_Get_relative_locality("SK0-99999999", "SK0", &locality), PMIX_ERR_BAD_PARAM, "too large");
    cr_expect_eq(PMIx_Get_relative_locality(nullptr, "SK0", &locality), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_Get_relative_locality("SK0", "SK0", nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(locality, 0x1234, "left alone on a refusal");
}
