// Load: 256 clients on 2 cores, started at once, each doing init, put,
// commit, a data-collecting fence over all 256, get of 16 peers, finalize;
// three such jobs one after another. Zero failures, and the server keeps no
// more file descriptors after the jobs than before. How long it takes and
// how much memory the server uses is measured by bench/load.sh, not here.
// The sanitizer runs set PMIXPP_LOAD_CLIENTS to a smaller job (128): the
// same code paths in half the time.
#include "integration/cases/itest_support.h"

#include "support/process_usage.h"

#include <cstdlib>

using namespace pmixpp::itest;

namespace {

constexpr int kDefaultClients = 256;
constexpr int kJobs = 3;

// Clients per job: PMIXPP_LOAD_CLIENTS when it is a number from 17 (more
// than the 16 peers each gets) to 1024, else 256.
int job_size()
{
    const char *text = std::getenv("PMIXPP_LOAD_CLIENTS");
    const long n = text != nullptr ? std::strtol(text, nullptr, 10) : 0;
    return n >= 17 && n <= 1024 ? static_cast<int>(n) : kDefaultClients;
}

const int kClients = job_size();

void run_load_job(int index)
{
    const std::string nspace = "itest-load" + std::to_string(index);
    const JobLayout layout = register_local_job(nspace.c_str(), kClients);
    Launch launch;
    launch.program = client_path("itest_load");
    launch.args = {"--peers", "16", "--rounds", "2", "--bytes", "256"};
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(nspace.c_str(), layout, launch, &pids), PMIX_SUCCESS);
    expect_all_ok(host().wait(pids, kJobTimeoutMs), kClients);
    cr_expect_eq(host().deregister_job(nspace.c_str()), PMIX_SUCCESS, "PMIx_server_deregister_nspace");
}

}  // namespace

TestSuite(load, .fini = stop_host, .timeout = 600);

Test(load, jobs_of_many_clients_all_succeed_and_leave_no_descriptors)
{
    start_host();
    run_load_job(0);  // the first job opens what the server keeps for good
    const long fds_before = pmixpp_test::open_fd_count();
    for (int job = 1; job < kJobs; ++job) run_load_job(job);
    cr_expect_eq(pmixpp_test::open_fd_count(), fds_before, "the server's descriptors after %d more jobs of %d clients",
                 kJobs - 1, kClients);
    cr_expect_eq(host().counters().connected.load(), kJobs * kClients, "client_connected upcalls");
    cr_expect_eq(host().counters().finalized.load(), kJobs * kClients, "client_finalized upcalls");
}
