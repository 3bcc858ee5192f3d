// pmixrun's examples beyond hello, and the jobs and sessions they make:
// data exchange with a host log record, registered cleanup, PMIx_Spawn
// (connected to its spawner, ended by its spawner or by job control), allocation requests making
// child sessions (ended with the parent session unless separated, or by
// PMIx_Session_control), spawns into unknown sessions refused, and
// pmixpp_ps listing sessions.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <string>

using namespace pmixrun_test;

namespace {

std::string g_tmp;   // pmixrun's --tmpdir
std::string g_work;  // where the examples write

void make_dirs()
{
    g_tmp = scratch_dir();
    g_work = scratch_dir();
}
void drop_dirs()
{
    remove_tree(g_tmp);
    remove_tree(g_work);
}

Result job(std::vector<std::string> args, int seconds = 60)
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    return run(args, "", seconds);
}

bool exists(const std::string &path)
{
    return ::access(path.c_str(), F_OK) == 0;
}

pid_t worker_pid()
{
    std::ifstream in(g_work + "/worker.pid");
    long pid = 0;
    in >> pid;
    return static_cast<pid_t>(pid);
}

}  // namespace

TestSuite(pmixrun_jobs, .init = make_dirs, .fini = drop_dirs, .timeout = 120);

Test(pmixrun_jobs, data_exchange_checks_every_peer_and_logs_through_the_host)
{
    const Result r = job({"-n", "4", DATA_EXCHANGE});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    for (int rank = 0; rank < 4; ++rank) {
        const std::string line =
            "rank " + std::to_string(rank) + ": 4 of 4 peers' values checked, late key from the next rank found";
        cr_assert(has_line(r.out, line), "no \"%s\" in:\n%s", line.c_str(), r.out.c_str());
    }
    cr_assert(has_line(r.out, "rank 0: PMIx_Log to the job record: SUCCESS"), "%s", r.out.c_str());
    cr_assert(r.err.find(":0] pmix.log.jrec: data exchange finished") != std::string::npos, "%s", r.err.c_str());
    cr_assert(empty_dir(g_tmp), "pmixrun left files in %s", g_tmp.c_str());
}

Test(pmixrun_jobs, cleanup_registrations_remove_what_the_ranks_left)
{
    const Result r = job({"-n", "2", CLEANUP_EXAMPLE, g_work});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "rank 1: made " + g_work + "/scratch-rank-1 and registered it for cleanup: SUCCESS"),
              "%s", r.out.c_str());
    cr_assert(empty_dir(g_work), "the scratch directories are still in %s", g_work.c_str());
}

Test(pmixrun_jobs, a_spawned_job_runs_and_its_end_is_announced_to_the_spawner)
{
    const Result r = job({"-n", "2", SPAWN_EXAMPLE});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "parent: PMIx_Spawn: SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "child rank 0: spawned by rank 0 of the parent job; fence SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "child rank 1: spawned by rank 0 of the parent job; fence SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "parent: connected to the child job of 2 processes"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "parent: PMIx_Connect/Get/Disconnect: SUCCESS, SUCCESS"), "%s", r.out.c_str());
    cr_assert_eq(count_lines_with(r.out, "connected; the parent says \"welcome, children\""), 2, "%s", r.out.c_str());
    cr_assert(has_line(r.out, "parent: the child job ended (exit code 0)"), "%s", r.out.c_str());
    cr_assert(r.err.empty(), "%s", r.err.c_str());
    cr_assert(empty_dir(g_tmp), "pmixrun left files in %s", g_tmp.c_str());
}

// A parent that completes on its own leaves its children a grace period
// (kChildrenGrace, 3 s) to end too: a child 0.5 s behind finishes its work.
Test(pmixrun_jobs, a_child_finishing_after_its_parent_completed_is_not_cut_short)
{
    const Result r = job({PROBE, "--spawn-late", "0.5"});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_expect(has_line(r.out, "spawn SUCCESS"), "%s", r.out.c_str());
    cr_expect(has_line(r.out, "late child done"), "the child was cut short:\n%s", r.out.c_str());
    cr_expect(r.err.empty(), "%s", r.err.c_str());
}

Test(pmixrun_jobs, job_control_terminates_a_spawned_job)
{
    const Result r = job({"-n", "2", SPAWN_EXAMPLE, "--terminate"});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "parent: PMIx_Job_control(terminate): SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "parent: the child job ended (exit code 143)"), "%s", r.out.c_str());
    cr_assert(r.err.find("killed by signal") == std::string::npos, "a requested end is no failure:\n%s", r.err.c_str());
}

// The parent session's end (its job finished) terminates the child session's jobs.
Test(pmixrun_jobs, the_parent_sessions_end_terminates_an_unseparated_child_sessions_job)
{
    const Result r = job({ALLOCATION_EXAMPLE, g_work});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(r.out.find("allocation request: SUCCESS: session 2 (allocation ppx-") != std::string::npos, "%s",
              r.out.c_str());
    cr_assert(has_line(r.out, "spawn into session 999: NOT-FOUND"), "%s", r.out.c_str());
    cr_assert(r.err.find("refused a spawn: session 999 (PMIX_SESSION_ID) is unknown") != std::string::npos, "%s",
              r.err.c_str());
    cr_assert(has_line(r.out, "spawn into the new session: SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "session 1: running, the launcher's session"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "session 2: running, a child session"), "%s", r.out.c_str());
    const pid_t worker = worker_pid();
    cr_assert_gt(worker, 0, "the worker never started");
    cr_assert(::kill(worker, 0) != 0, "worker %d still runs after pmixrun ended", worker);
    cr_assert(!exists(g_work + "/worker.done"), "the worker finished its 60 s of work: it was not terminated");
    cr_assert(empty_dir(g_tmp), "pmixrun left files in %s", g_tmp.c_str());
}

Test(pmixrun_jobs, a_separated_child_session_outlives_its_parent)
{
    const Result r = job({ALLOCATION_EXAMPLE, g_work, "--separate"});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(r.out.find("separated from its parent") != std::string::npos, "%s", r.out.c_str());
    cr_assert(exists(g_work + "/worker.done"), "the worker of a separated session did not finish its work");
}

Test(pmixrun_jobs, session_control_terminates_a_child_session)
{
    const Result r = job({ALLOCATION_EXAMPLE, g_work, "--terminate"});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_assert(has_line(r.out, "session control (terminate): SUCCESS"), "%s", r.out.c_str());
    cr_assert(has_line(r.out, "the worker's job ended (exit code 143)"), "%s", r.out.c_str());
    cr_assert(!exists(g_work + "/worker.done"));
}

// A second terminal sees both jobs and both sessions of a running pmixrun.
Test(pmixrun_jobs, pmixpp_ps_lists_jobs_and_sessions)
{
    const pid_t pid = start({"--tmpdir", g_tmp, ALLOCATION_EXAMPLE, g_work, "--separate"});
    Result ps;
    for (int attempt = 0; attempt < 50; ++attempt) {
        ps = run_program(PMIXPP_PS, {"--pid", std::to_string(pid), "--tmpdir", g_tmp}, 20);
        if (ps.code == 0 && count_lines_with(ps.out, "/allocation") >= 1 &&
            ps.out.find("SESSION") != std::string::npos && count_lines_with(ps.out, "-session-2") == 1) {
            break;
        }
        ::usleep(100000);
    }
    cr_assert_eq(finish(pid), 0);
    cr_assert_eq(ps.code, 0, "%s", ps.err.c_str());
    cr_assert(ps.out.find("SESSION") != std::string::npos, "%s", ps.out.c_str());
    cr_assert_eq(count_lines_with(ps.out, "-session-2"), 1, "%s", ps.out.c_str());
    cr_assert_eq(count_lines_with(ps.out, "-session-1"), 1, "%s", ps.out.c_str());
}
