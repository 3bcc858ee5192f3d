// A host that behaves as Slurm 22.05's slurmstepd: it passes no
// PMIX_HOSTNAME to PMIx_server_init, names this node in the job's maps by a
// name of its own (a Slurm NodeName, not gethostname()), registers what
// Slurm's mpi/pmix plugin registers, and calls PMIx_server_setup_fork in the
// child it has just forked, where the library has no progress thread. The
// clients must still find their server, their peers and this node's data.
// (The same host with the real Slurm: tests/compat/slurm.)
#include "integration/cases/itest_support.h"

using namespace pmixpp::itest;

TestSuite(slurm_host, .fini = stop_host, .timeout = 240);

namespace {

void skip_under_asan()
{
#if defined(PMIXPP_UNDER_ASAN)
    // setup_fork allocates in a child forked from a threaded process. glibc's
    // malloc is fork-safe; GCC 12's ASan allocator has no fork handler and
    // may hang the child on a lock a parent thread held at the fork (see
    // engine/forked_child_starts_its_own_engine). The normal build and TSan
    // run it.
    cr_skip_test("ASan's allocator is not fork-safe (the normal build runs this case)");
#endif
}

HostOptions like_slurmstepd()
{
    HostOptions options;
    options.setup_fork_in_child = true;
    options.omit_hostname_at_init = true;
    options.node_name = "slurm-nodename-7";  // never this machine's hostname
    return options;
}

std::vector<ProcResult> run_job(const JobSpec &spec, std::vector<std::string> extra_args, JobLayout *layout_p)
{
    std::string error;
    cr_assert_eq(host().register_job(spec, layout_p, &error), PMIX_SUCCESS, "%s", error.c_str());
    Launch launch = exchange_launch(*layout_p, 0);
    launch.args.insert(launch.args.end(), extra_args.begin(), extra_args.end());
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(spec.nspace, *layout_p, launch, &pids), PMIX_SUCCESS);
    return host().wait(pids, kJobTimeoutMs);
}

}  // namespace

// put, commit, collecting fence and get of every peer: at first the
// children got PMIX_ERR_INIT from setup_fork and started as singletons, and
// the fence failed with PMIX_ERR_BAD_PARAM (no local ranks found).
Test(slurm_host, one_node_job_exchanges_data)
{
    skip_under_asan();
    start_host(like_slurmstepd());
    JobSpec spec;
    spec.nspace = "itest-slurm4";
    spec.local_procs = 4;
    spec.style = InfoStyle::slurm;
    JobLayout layout;
    expect_all_ok(run_job(spec, {}, &layout), 4);
    cr_expect_eq(host().counters().connected.load(), 4, "client_connected upcalls");
}

// This node in the middle of three, found by its Slurm node id and local
// peers; the job's layout keys as the clients read them.
Test(slurm_host, three_node_job_knows_which_node_is_this_one)
{
    skip_under_asan();
    start_host(like_slurmstepd());
    JobSpec spec;
    spec.nspace = "itest-slurm3n";
    spec.local_procs = 2;
    spec.remote_procs = 2;
    spec.remote_nodes = {"slurm-nodename-6", "slurm-nodename-8"};
    spec.local_node_index = 1;
    spec.style = InfoStyle::slurm;
    JobLayout layout;
    const std::vector<ProcResult> results = run_job(spec, {"--no-data"}, &layout);
    cr_assert_eq(layout.local_ranks(), (std::vector<pmix_rank_t>{2, 3}));
    expect_all_ok(results, 2);
}
