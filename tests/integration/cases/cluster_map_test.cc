// Node and process maps made by PMIx_generate_regex / PMIx_generate_ppn go
// through PMIx_server_register_nspace and come back out of PMIx_Get in the
// clients: a 10,000-node cluster (node0001 .. node10000) with this host's
// processes on one node in the middle, registered with only PMIX_JOB_SIZE and
// the two maps, so every layout key the clients read is derived.
#include "integration/cases/itest_support.h"

#include <cstdio>

using namespace pmixpp::itest;

TestSuite(cluster_map, .fini = stop_host, .timeout = 240);

namespace {

constexpr int kNodes = 10000;

std::string node_name(int index)  // index 0 -> node0001
{
    char name[32];
    std::snprintf(name, sizeof(name), "node%04d", index + 1);
    return name;
}

std::string peer_arg(const JobLayout &layout, std::size_t node)
{
    return std::to_string(layout.ranks[node].front()) + ":" + layout.nodes[node] + ":" + std::to_string(node);
}

}  // namespace

Test(cluster_map, ten_thousand_nodes_minimal_info)
{
    const int local_index = 4999;  // node5000
    HostOptions options;
    options.hostname = node_name(local_index);
    start_host(options);

    JobSpec spec;
    spec.nspace = "itest-cluster";
    spec.local_procs = 3;
    spec.style = InfoStyle::minimal;
    for (int i = 0; i < kNodes; ++i) {
        if (i != local_index) spec.remote_nodes.push_back(node_name(i));
    }
    spec.local_node_index = local_index;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_assert_eq(layout.nodes.size(), static_cast<std::size_t>(kNodes));
    cr_assert_eq(layout.job_size, static_cast<uint32_t>(kNodes - 1 + 3));

    Launch launch = exchange_launch(layout, 0);
    launch.args.push_back("--no-data");
    for (std::size_t node :
         {std::size_t{0}, std::size_t{local_index - 1}, std::size_t{local_index + 1}, std::size_t{kNodes - 1}}) {
        launch.args.push_back("--peer");
        launch.args.push_back(peer_arg(layout, node));
    }
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(spec.nspace, layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 3);
}

// The same job shape on a cluster whose names do not compress well.
Test(cluster_map, irregular_names_full_info)
{
    HostOptions options;
    options.hostname = "login-b.example.org";
    start_host(options);
    JobSpec spec;
    spec.nspace = "itest-irregular";
    spec.local_procs = 2;
    spec.remote_nodes = {"c9", "c10", "c010", "gpu-a.1", "x"};
    spec.local_node_index = 2;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    Launch launch = exchange_launch(layout, 2 * layout.job_size);
    for (std::size_t node = 0; node < layout.nodes.size(); ++node) {
        if (node == layout.local_node) continue;
        launch.args.push_back("--peer");
        launch.args.push_back(peer_arg(layout, node));
    }
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(spec.nspace, layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
    // The job spans other nodes: the collective needs the host.
    cr_expect_geq(host().counters().fences.load(), 1, "fence_nb upcalls");
}
