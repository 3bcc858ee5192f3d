// Faults around a running job: a client killed with SIGKILL while
// its peers wait in a fence. The peers' fence fails at once (not at its
// timeout) and each hears the termination event naming the killed rank; the
// server goes on serving a new job.
#include "integration/cases/itest_support.h"

#include <signal.h>

using namespace pmixpp::itest;

TestSuite(faults, .fini = stop_host, .timeout = 240);

Test(faults, a_client_killed_in_a_fence_fails_it_for_the_others_with_an_event)
{
    start_host();
    const JobLayout layout = register_local_job("itest-killed", 4);
    Launch launch;
    launch.program = client_path("itest_faults");
    launch.args = {"killed-peer", host().tmpdir()};
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job("itest-killed", layout, launch, &pids), PMIX_SUCCESS);
    cr_assert(wait_until_ready(host().tmpdir(), layout, kJobTimeoutMs), "the job never became ready");
    cr_assert_eq(::kill(pids.back(), SIGKILL), 0);
    const std::vector<ProcResult> results = host().wait(pids, kJobTimeoutMs);
    cr_assert_eq(results.size(), 4u);
    for (std::size_t i = 0; i + 1 < results.size(); ++i) {
        const ProcResult &result = results[i];
        cr_expect(result.succeeded() &&
                      result.output.find("rank " + std::to_string(result.rank) + " ok\n") != std::string::npos,
                  "%s", result.describe().c_str());
    }
    cr_expect(WIFSIGNALED(results.back().wait_status) && WTERMSIG(results.back().wait_status) == SIGKILL, "%s",
              results.back().describe().c_str());
    cr_expect_eq(host().deregister_job("itest-killed"), PMIX_SUCCESS);
    const JobLayout next = register_local_job("itest-after-kill", 2);
    cr_assert_eq(host().spawn_job("itest-after-kill", next, exchange_launch(next, 2 * next.job_size), &pids),
                 PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
}
