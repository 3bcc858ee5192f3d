// PMIx_Load_topology in a singleton: the library's own topology, discovered
// once, which a caller's PMIx_Topology_destruct does not destroy.
#include <criterion/criterion.h>

#include <hwloc.h>
#include <pmix.h>

#include <cstdlib>
#include <cstring>

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
