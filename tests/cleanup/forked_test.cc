// Registered cleanup end to end: a real server (the integration test host)
// and real forked clients (cleanup_client.c) that register files and
// directories and then exit, are killed, or are refused.
#include "cleanup/temp_tree.h"
#include "integration/cases/itest_support.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fstream>

using namespace pmixpp::itest;
using namespace pmixpp::cleanup_test;

TestSuite(cleanup_forked, .fini = stop_host, .timeout = 240);

namespace {

constexpr int kRemovalWaitMs = 30000;

std::vector<pid_t> start_job(const char *nspace, int nprocs, const char *mode, const std::string &dir)
{
    start_host();
    const JobLayout layout = register_local_job(nspace, nprocs);
    Launch launch;
    launch.program = CLEANUP_CLIENT;
    launch.args = {mode, dir};
    std::vector<pid_t> pids;
    cr_assert_eq(host().spawn_job(nspace, layout, launch, &pids), PMIX_SUCCESS);
    return pids;
}

// The server removes after it notices the end of the connection, which may
// come a moment after waitpid: wait for it, bounded.
bool removed_within(const std::string &path, int timeout_ms)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < timeout_ms; waited += 10) {
        if (!exists(path)) return true;
        nanosleep(&tick, nullptr);
    }
    return !exists(path);
}

void make_self_files(const TempTree &tree)
{
    tree.file("self.file");
    tree.file("selfdir/a");
    tree.file("selfdir/sub/b");
    tree.file("outside/precious");
    tree.link("selfdir/sub/trap", tree.path("outside/precious"));
}

}  // namespace

Test(cleanup_forked, files_of_a_client_that_exits_are_removed_after_it_ends)
{
    TempTree tree;
    make_self_files(tree);
    const auto pids = start_job("cleanup-exit", 1, "self", tree.root());
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 1);
    cr_expect(removed_within(tree.path("self.file"), kRemovalWaitMs));
    cr_expect(removed_within(tree.path("selfdir"), kRemovalWaitMs));
    cr_expect(exists(tree.path("outside/precious")), "the link's target survives");
}

Test(cleanup_forked, files_of_a_client_killed_with_sigkill_are_still_removed)
{
    TempTree tree;
    make_self_files(tree);
    const auto pids = start_job("cleanup-killed", 1, "killed", tree.root());
    const auto results = host().wait(pids, kJobTimeoutMs);
    cr_assert_eq(results.size(), 1u);
    cr_expect(WIFSIGNALED(results[0].wait_status) && WTERMSIG(results[0].wait_status) == SIGKILL, "%s",
              results[0].describe().c_str());
    cr_expect(removed_within(tree.path("self.file"), kRemovalWaitMs));
    cr_expect(removed_within(tree.path("selfdir"), kRemovalWaitMs));
    cr_expect(exists(tree.path("outside/precious")));
}

Test(cleanup_forked, a_namespace_registration_runs_after_the_last_local_client)
{
    TempTree tree;
    tree.file("jobdir/data");
    tree.file("self.0");
    tree.file("self.1");
    const auto pids = start_job("cleanup-ns", 2, "job", tree.root());
    // Rank 0's own file going proves that the server has seen rank 0 end.
    cr_assert(removed_within(tree.path("self.0"), kRemovalWaitMs), "rank 0's own cleanup did not run");
    cr_expect(exists(tree.path("jobdir/data")), "rank 1 still runs: the namespace's cleanup must wait");
    tree.file("release");
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 2);
    cr_expect(removed_within(tree.path("jobdir"), kRemovalWaitMs));
    cr_expect(removed_within(tree.path("self.1"), kRemovalWaitMs));
}

Test(cleanup_forked, files_of_another_owner_survive)
{
    if (geteuid() != 0) cr_skip_test("needs root to chown files to 65534:65534");
    TempTree tree;
    tree.file("foreign");
    tree.file("own");
    tree.file("tree/mine");
    tree.file("tree/theirs");
    cr_assert_eq(chown(tree.path("foreign").c_str(), 65534, 65534), 0);
    cr_assert_eq(chown(tree.path("tree/theirs").c_str(), 65534, 65534), 0);
    const auto pids = start_job("cleanup-foreign", 1, "foreign", tree.root());
    expect_all_ok(host().wait(pids, kJobTimeoutMs), 1);
    cr_expect(removed_within(tree.path("own"), kRemovalWaitMs));
    cr_expect(removed_within(tree.path("tree/mine"), kRemovalWaitMs));
    cr_expect(exists(tree.path("foreign")));
    cr_expect(exists(tree.path("tree/theirs")));
    cr_expect(exists(tree.path("tree")), "not empty");
}

Test(cleanup_forked, a_relative_path_is_refused_and_the_client_is_told_which)
{
    TempTree tree;
    const auto pids = start_job("cleanup-refused", 1, "refused", tree.root());
    const auto results = host().wait(pids, kJobTimeoutMs);
    expect_all_ok(results, 1);
    cr_expect(results[0].output.find("relative/cleanup-path") != std::string::npos, "%s",
              results[0].describe().c_str());
}

// Other directives are the host's: this host has no job_control upcall.
Test(cleanup_forked, other_directives_go_to_the_host)
{
    TempTree tree;
    const auto pids = start_job("cleanup-host", 1, "refused", tree.root());
    const auto results = host().wait(pids, kJobTimeoutMs);
    expect_all_ok(results, 1);
    cr_expect(results[0].output.find("forwarded: NOT-SUPPORTED") != std::string::npos, "%s",
              results[0].describe().c_str());
}
