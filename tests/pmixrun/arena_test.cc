// Whole-job fences of a pmixrun job through the fence arena:
// data collected in shared memory, a rank that fences through the server
// beside ranks that use the arena, a rank dying mid-fence, a timeout, and
// the arena's file: present while the job runs, gone after it, and reaped
// by the next server after a crash. The arenas go to this test's own
// directory (PMIX_MCA_pmix_fence_arena_dir).
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

using namespace pmixrun_test;

namespace {

std::string g_tmp;
std::string g_arenas;
std::string g_work;

void setup()
{
    g_tmp = scratch_dir();
    g_arenas = scratch_dir();
    g_work = scratch_dir();
    ::setenv("PMIX_MCA_pmix_fence_arena_dir", g_arenas.c_str(), 1);
}

void teardown()
{
    remove_tree(g_tmp);
    remove_tree(g_arenas);
    remove_tree(g_work);
}

// The arenas in the arena directory, or (bells) their doorbell FIFOs.
int arena_files(bool bells = false)
{
    DIR *dir = ::opendir(g_arenas.c_str());
    if (dir == nullptr) return -1;
    int count = 0;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        const bool bell = name.size() > 5 && name.compare(name.size() - 5, 5, ".bell") == 0;
        if (name.rfind("pmixpp-fence.", 0) == 0 && bell == bells) ++count;
    }
    ::closedir(dir);
    return count;
}

bool wait_for_file(const std::string &path, int seconds)
{
    for (int i = 0; i < seconds * 20; ++i) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) return true;
        ::usleep(50000);
    }
    return false;
}

std::string report(const Result &result)
{
    return "exit " + std::to_string(result.code) + "\nstdout:\n" + result.out + "\nstderr:\n" + result.err;
}

}  // namespace

TestSuite(pmixrun_arena, .init = setup, .fini = teardown, .timeout = 120);

Test(pmixrun_arena, collecting_fences_bring_every_rounds_data_to_every_rank)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "4", ARENA_CLIENT, "collect", "4"});
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "4 rounds checked"), 4, "%s", report(result).c_str());
    cr_expect_eq(arena_files(), 0, "the job's arena outlived it");
    cr_expect_eq(arena_files(true), 0, "the job's doorbell outlived it");
}

Test(pmixrun_arena, a_rank_without_the_arena_meets_the_others_through_the_server)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "3", ARENA_CLIENT, "collect", "4", "1"});
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "4 rounds checked"), 3, "%s", report(result).c_str());
}

Test(pmixrun_arena, a_rank_dying_mid_fence_releases_the_others_with_lost_connection)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "3", ARENA_CLIENT, "die", g_work});
    for (const char *rank : {"0", "1"}) {
        const std::string prefix = std::string("rank ") + rank + ": ";
        cr_expect(has_line(result.out, prefix + "fence LOST_CONNECTION"), "%s", report(result).c_str());
        cr_expect(has_line(result.out, prefix + "next fence LOST_CONNECTION"), "%s", report(result).c_str());
    }
    cr_expect_eq(count_lines_with(result.out, "FAILED"), 0, "%s", report(result).c_str());
}

Test(pmixrun_arena, a_fence_that_times_out_does_not_spoil_the_next)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "2", ARENA_CLIENT, "timeout"});
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect(has_line(result.out, "rank 0: early fence TIMEOUT"), "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "fence ok"), 2, "%s", report(result).c_str());
}

// The same with a Fence_nb: its deadline is watched on the progress thread
// (the doorbell rings only at a release).
Test(pmixrun_arena, a_fence_nb_that_times_out_does_not_spoil_the_next)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "2", ARENA_CLIENT, "timeout_nb"});
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect(has_line(result.out, "rank 0: early Fence_nb TIMEOUT"), "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "fence ok"), 2, "%s", report(result).c_str());
}

Test(pmixrun_arena, a_crashed_servers_arena_is_reaped_by_the_next_server)
{
    const pid_t server = start({"--tmpdir", g_tmp, "-n", "2", ARENA_CLIENT, "hold", g_work});
    cr_assert(wait_for_file(g_work + "/ready", 60), "the job never fenced");
    cr_expect_eq(arena_files(), 1, "a running two-rank job has one arena");
    cr_expect_eq(arena_files(true), 1, "and one doorbell");
    cr_assert_eq(::kill(server, SIGKILL), 0);
    cr_expect_eq(finish(server, 10), 128 + SIGKILL);
    test_support::run("/usr/bin/touch", {g_work + "/go"});  // its ranks end by themselves
    cr_expect_eq(arena_files(), 1, "the crashed server's arena is still there");
    const Result next = run({"--tmpdir", g_tmp, "-n", "2", ARENA_CLIENT, "collect", "1"});
    cr_expect_eq(next.code, 0, "%s", report(next).c_str());
    cr_expect_eq(arena_files(), 0, "the orphan (or the new job's arena) is left behind");
    cr_expect_eq(arena_files(true), 0, "the orphan's doorbell (or the new job's) is left behind");
}

// PMIx_Fence_nb over the whole job meets the other ranks in the arena, as
// the blocking fence does: no rank is represented by the server (its trace
// says when it is), data comes with it, and two started at once end in order.
Test(pmixrun_arena, fence_nb_meets_in_the_arena)
{
    ::setenv("PMIX_MCA_pmix_server_verbose", "1", 1);
    const Result result = run({"--tmpdir", g_tmp, "-n", "3", ARENA_CLIENT, "nb", "5"});
    ::unsetenv("PMIX_MCA_pmix_server_verbose");
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "5 nb rounds checked"), 3, "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.err, "fences through the server"), 0, "%s", report(result).c_str());
}

// More ranks than cores: no waiter spins, every fence still completes.
Test(pmixrun_arena, fence_nb_in_an_oversubscribed_job)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "6", ARENA_CLIENT, "nb", "3"});
    cr_expect_eq(result.code, 0, "%s", report(result).c_str());
    cr_expect_eq(count_lines_with(result.out, "3 nb rounds checked"), 6, "%s", report(result).c_str());
}

Test(pmixrun_arena, a_rank_dying_mid_fence_nb_gives_lost_connection)
{
    const Result result = run({"--tmpdir", g_tmp, "-n", "3", ARENA_CLIENT, "die_nb", g_work});
    for (const char *rank : {"0", "1"}) {
        const std::string prefix = std::string("rank ") + rank + ": ";
        cr_expect(has_line(result.out, prefix + "fence_nb LOST_CONNECTION"), "%s", report(result).c_str());
    }
    cr_expect_eq(count_lines_with(result.out, "FAILED"), 0, "%s", report(result).c_str());
}
