// PMIx_Connect between two jobs registered on one server: real clients of
// each job connect both jobs (wildcard ranks), read the other job's size
// and a value the other job committed, then disconnect. Every participant
// lives on this node, so the server completes both collectives itself and
// the host's connect and disconnect upcalls are not asked (as with OpenPMIx
// 4.2; tests/server/connect_test.cc covers the host's part, with a rank on
// another node).
#include "integration/cases/itest_support.h"

using namespace pmixpp::itest;

namespace {

constexpr const char *kFirst = "itest-connect-a";
constexpr const char *kSecond = "itest-connect-b";

// kFirst (2 processes, blocking calls) and kSecond (1 process, _nb calls).
void run_both_jobs()
{
    const JobLayout first = register_local_job(kFirst, 2);
    const JobLayout second = register_local_job(kSecond, 1);
    Launch first_launch;
    first_launch.program = client_path("itest_connect");
    first_launch.args = {"--other", kSecond, "--other-size", "1"};
    Launch second_launch = first_launch;
    second_launch.args = {"--other", kFirst, "--other-size", "2", "--nb"};
    std::vector<pid_t> pids, second_pids;  // spawn_job fills its vector anew
    cr_assert_eq(host().spawn_job(kFirst, first, first_launch, &pids), PMIX_SUCCESS);
    cr_assert_eq(host().spawn_job(kSecond, second, second_launch, &second_pids), PMIX_SUCCESS);
    pids.insert(pids.end(), second_pids.begin(), second_pids.end());
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 3);
    Counters &counters = host().counters();
    cr_expect_eq(counters.connects.load(), 0, "connect upcalls for an all-local collective");
    cr_expect_eq(counters.disconnects.load(), 0, "disconnect upcalls for an all-local collective");
}

}  // namespace

TestSuite(connect, .fini = stop_host, .timeout = 240);

Test(connect, two_jobs_connect_read_each_other_and_disconnect)
{
    start_host();
    run_both_jobs();
}

// The host acknowledges later, from a thread of its own.
Test(connect, with_a_host_that_answers_later)
{
    HostOptions options;
    options.async_upcalls = true;
    start_host(options);
    run_both_jobs();
}
