// PMIX_LOCALITY_STRING from a cpuset on this machine's real topology.
#include "jobdata_helpers.h"
#include "server/jobdata/locality.h"

#include <criterion/criterion.h>

#include <hwloc.h>

#include <string>

namespace {

struct Topology {
    Topology()
    {
        cr_assert_eq(hwloc_topology_init(&topo), 0);
        cr_assert_eq(hwloc_topology_load(topo), 0);
    }
    ~Topology() { hwloc_topology_destroy(topo); }
    hwloc_topology_t topo = nullptr;
};

}  // namespace

Test(locality, first_pu_names_every_level_down_to_ht0)
{
    Topology t;
    const std::string locality = pmixpp::jobdata::locality_string(t.topo, "0");
    cr_assert(!locality.empty());
    cr_assert(locality.size() >= 3 && locality.compare(locality.size() - 3, 3, "HT0") == 0, "%s", locality.c_str());
    cr_assert(locality.find("::") == std::string::npos);
    // The mask notation means the same.
    cr_assert_eq(pmixpp::jobdata::locality_string(t.topo, "0x00000001"), locality);
    // And the form PMIx_server_generate_cpuset_string makes, with its source.
    cr_assert_eq(pmixpp::jobdata::locality_string(t.topo, "hwloc:0"), locality);
}

Test(locality, unparsable_or_empty_cpusets_give_nothing)
{
    Topology t;
    cr_assert(pmixpp::jobdata::locality_string(t.topo, "not-a-cpuset").empty());
    cr_assert(pmixpp::jobdata::locality_string(nullptr, "0").empty());
    cr_assert(pmixpp::jobdata::locality_string(t.topo, nullptr).empty());
    // Endless or absurdly large sets, which hwloc itself would take.
    // A mask that does not start the string trips an assert() in hwloc.
    for (const char *unbounded : {"0-", "hwloc:0+-3", "0-4000000000", "0xf...f", ",0x1f", "0x1,,2", "0x123456789"}) {
        cr_expect(pmixpp::jobdata::locality_string(t.topo, unbounded).empty(), "%s", unbounded);
    }
}

Test(locality, registration_derives_it_for_local_procs_only)
{
    Topology t;
    auto store = jobdata_test::hash_store();
    jobdata_test::Infos infos;
    infos.str(PMIX_NODE_MAP, "here,there").str(PMIX_PROC_MAP, "0;1");
    for (pmix_rank_t r = 0; r < 2; ++r) {
        jobdata_test::Infos proc;
        proc.rank(PMIX_RANK, r).str(PMIX_CPUSET, "0");
        infos.nested(PMIX_PROC_INFO_ARRAY, proc);
    }
    pmixpp::jobdata::Options options;
    options.local_hostname = "here";
    options.topology = [&t] { return t.topo; };
    std::string error;
    cr_assert_eq(
        pmixpp::jobdata::register_nspace("loc", 1, infos.data(), infos.size(), options, *store, nullptr, &error),
        PMIX_OPERATION_SUCCEEDED, "%s", error.c_str());
    const std::string expected = pmixpp::jobdata::locality_string(t.topo, "0");
    cr_assert_eq(jobdata_test::str_at(*store, "loc", PMIXPP_GDS_LEVEL_PROC, 0, PMIX_LOCALITY_STRING), expected);
    cr_assert_not(jobdata_test::has(*store, "loc", PMIXPP_GDS_LEVEL_PROC, 1, PMIX_LOCALITY_STRING));
    cr_assert_eq(jobdata_test::str_at(*store, "loc", PMIXPP_GDS_LEVEL_NODE, 0, PMIX_LOCAL_CPUSETS), "0");
}
