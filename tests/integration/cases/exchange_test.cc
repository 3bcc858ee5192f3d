// The data path under a real server: init, put, commit, fence with data,
// get of every peer's keys and of the job/node/proc keys, finalize, for
// 1, 4 and 8 processes, with full and with minimal registration info, and
// with a host that answers its upcalls at once or later from its own thread.
#include "integration/cases/itest_support.h"

using namespace pmixpp::itest;

TestSuite(exchange, .fini = stop_host, .timeout = 240);

namespace {

void run_exchange(const char *nspace, int nprocs, InfoStyle style, bool expect_counters,
                  std::vector<std::string> extra_args = {})
{
    JobSpec spec;
    spec.nspace = nspace;
    spec.local_procs = nprocs;
    spec.style = style;
    JobLayout layout;
    std::string error;
    cr_assert_eq(host().register_job(spec, &layout, &error), PMIX_SUCCESS, "%s", error.c_str());
    const uint32_t univ = style == InfoStyle::full ? 2 * layout.job_size : 0;
    std::vector<pid_t> pids;
    Launch launch = exchange_launch(layout, univ);
    launch.args.insert(launch.args.end(), extra_args.begin(), extra_args.end());
    cr_assert_eq(host().spawn_job(nspace, layout, launch, &pids), PMIX_SUCCESS);
    const std::vector<ProcResult> results = host().wait(pids, kJobTimeoutMs);
    expect_all_ok(results, static_cast<std::size_t>(nprocs));
    cr_expect_eq(host().deregister_job(nspace), PMIX_SUCCESS, "PMIx_server_deregister_nspace");
    if (!expect_counters) return;
    cr_expect_eq(host().counters().connected.load(), nprocs, "client_connected upcalls");
    cr_expect_eq(host().counters().finalized.load(), nprocs, "client_finalized upcalls");
    // No fence_nb expectation: with every participant on this node the
    // library may complete the fence without the host.
}

}  // namespace

Test(exchange, four_procs)
{
    start_host();
    run_exchange("itest-exchange4", 4, InfoStyle::full, true);
}

Test(exchange, one_proc)
{
    start_host();
    run_exchange("itest-exchange1", 1, InfoStyle::full, true);
}

Test(exchange, eight_procs)
{
    start_host();
    run_exchange("itest-exchange8", 8, InfoStyle::full, true);
}

Test(exchange, four_procs_minimal_info_derives_the_rest)
{
    start_host();
    run_exchange("itest-minimal4", 4, InfoStyle::minimal, false);
}

Test(exchange, four_procs_host_answers_later)
{
    HostOptions options;
    options.async_upcalls = true;
    start_host(options);
    run_exchange("itest-async4", 4, InfoStyle::full, true);
}

// PMIX_REMOTE data is meant for processes on other nodes only.
Test(exchange, remote_scope_is_hidden_from_local_peers)
{
    start_host();
    run_exchange("itest-scopes", 3, InfoStyle::full, false, {"--check-scopes"});
}

// Without PMIX_COLLECT_DATA the peers' data is fetched when first read.
Test(exchange, fence_without_collect_then_get)
{
    start_host();
    run_exchange("itest-nocollect", 4, InfoStyle::full, false, {"--no-collect"});
}

Test(exchange, get_nb_immediate_refresh_and_resolve)
{
    start_host();
    run_exchange("itest-extras", 3, InfoStyle::full, false, {"--extras"});
}

// Two jobs at once: each sees only its own peers' data and layout.
Test(exchange, two_jobs_side_by_side)
{
    start_host();
    JobSpec a;
    a.nspace = "itest-side-a";
    a.local_procs = 2;
    a.univ_size = 10;  // session-wide: both jobs must agree
    JobSpec b = a;
    b.nspace = "itest-side-b";
    b.local_procs = 3;
    JobLayout layout_a;
    JobLayout layout_b;
    std::string error;
    cr_assert_eq(host().register_job(a, &layout_a, &error), PMIX_SUCCESS, "%s", error.c_str());
    cr_assert_eq(host().register_job(b, &layout_b, &error), PMIX_SUCCESS, "%s", error.c_str());
    std::vector<pid_t> pids_a;
    std::vector<pid_t> pids_b;
    cr_assert_eq(host().spawn_job(a.nspace, layout_a, exchange_launch(layout_a, 10), &pids_a), PMIX_SUCCESS);
    cr_assert_eq(host().spawn_job(b.nspace, layout_b, exchange_launch(layout_b, 10), &pids_b), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids_a, kJobTimeoutMs), 2);
    expect_all_ok(host().wait(pids_b, kJobTimeoutMs), 3);
}

Test(exchange, ompi_init_twice_finalize_once_pattern)
{
    start_host();
    JobSpec spec;
    spec.nspace = "itest-ompi";
    spec.local_procs = 4;
    Launch launch;
    launch.program = client_path("itest_ompi_pattern");
    std::vector<ProcResult> results;
    std::string error;
    cr_assert_eq(host().run_job(spec, launch, kJobTimeoutMs, &results, &error), PMIX_SUCCESS, "%s", error.c_str());
    expect_all_ok(results, 4);
}

Test(exchange, events_from_rank_zero_reach_the_others)
{
    start_host();
    JobSpec spec;
    spec.nspace = "itest-events";
    spec.local_procs = 3;
    Launch launch;
    launch.program = client_path("itest_events");
    std::vector<ProcResult> results;
    std::string error;
    cr_assert_eq(host().run_job(spec, launch, kJobTimeoutMs, &results, &error), PMIX_SUCCESS, "%s", error.c_str());
    expect_all_ok(results, 3);
}

// Each client calls PMIx from six threads at once (clients/threads.c):
// gets on the fast read path, put/commit, event handler registration and
// get_nb, while its progress thread serves replies. The TSan run checks the
// library's side of it.
Test(exchange, many_threads_per_client_call_pmix_at_once)
{
    start_host();
    const char *nspace = "itest-threads";
    const JobLayout layout = register_local_job(nspace, 4);
    Launch launch;
    launch.program = client_path("itest_threads");
    launch.args = {"--threads", "6", "--rounds", "100"};
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(nspace, layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 4);
    cr_expect_eq(host().deregister_job(nspace), PMIX_SUCCESS, "PMIx_server_deregister_nspace");
}
