// A job that acts on what is not its own: pmixrun refuses it with
// PMIX_ERR_NO_PERMISSIONS and a line naming the requester and the rule, and
// the jobs it aimed at run on. A job that asks for more processes than
// --max-procs is refused too. See intruder_client.c for the scenarios.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <string>

#include <unistd.h>

using namespace pmixrun_test;

TestSuite(pmixrun_hostile, .timeout = 120);

Test(pmixrun_hostile, a_job_may_not_control_or_spawn_into_what_is_not_its_own)
{
    const std::string tmp = scratch_dir();
    const Result result = run({"--tmpdir", tmp, "-n", "1", INTRUDER_CLIENT, "parent"}, "", 90);
    remove_tree(tmp);
    cr_assert_eq(result.code, 0, "pmixrun exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    for (const char *attempt : {"kill the victim job", "terminate the parent job", "terminate the victim's session",
                                "spawn into the victim's session"}) {
        const std::string line = std::string("intruder: ") + attempt + ": NO-PERMISSIONS";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line.c_str(), result.out.c_str());
    }
    cr_expect_eq(count_lines_with(result.err, "may control only its own job and the jobs it spawned"), 2, "%s",
                 result.err.c_str());
    cr_expect_eq(count_lines_with(result.err, "may use only its own session and the sessions allocated under it"), 2,
                 "%s", result.err.c_str());
    // The victim ran on until its own spawner ended it (it may not have
    // printed yet by then: no line of its own is required).
    cr_expect(has_line(result.out, "parent: terminating the victim it spawned: SUCCESS"), "%s", result.out.c_str());
    cr_expect(result.err.find("signal 9") == std::string::npos, "a job was killed:\n%s", result.err.c_str());
}

// A spawn may not take pmixrun past --max-procs: not 2^31 - 1 processes in
// one application, not 3 + 3 next to the 1 running; 2 more still fit.
Test(pmixrun_hostile, a_spawn_past_the_process_limit_is_refused)
{
    const std::string tmp = scratch_dir();
    const Result result = run({"--tmpdir", tmp, "--max-procs", "4", "-n", "1", INTRUDER_CLIENT, "flood"}, "", 90);
    remove_tree(tmp);
    cr_assert_eq(result.code, 0, "pmixrun exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    for (const char *line :
         {"flood: 2147483647 processes: OUT-OF-RESOURCE", "flood: 3 + 3 processes next to 1: OUT-OF-RESOURCE",
          "flood: 2 processes: SUCCESS", "flood: the spawned job ended"}) {
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line, result.out.c_str());
    }
    cr_expect_eq(count_lines_with(result.err, "past --max-procs 4 (ask for fewer"), 2, "%s", result.err.c_str());
    cr_expect_eq(count_lines_with(result.err, "asked for 2147483647 processes next to the 1 running"), 1, "%s",
                 result.err.c_str());
}

// The command line's own job is held to the same limit.
Test(pmixrun_hostile, a_job_larger_than_the_process_limit_does_not_start)
{
    const Result result = run({"--max-procs", "2", "-n", "2", "true", ":", "-n", "1", "true"}, "", 30);
    cr_expect_eq(result.code, 2, "%s", result.err.c_str());
    cr_expect(result.err.find("the job asks for 3 processes, more than --max-procs 2") != std::string::npos, "%s",
              result.err.c_str());
    cr_expect_eq(run({"--max-procs", "0", "true"}, "", 30).code, 2);
}

Test(pmixrun_hostile, a_tool_of_another_user_is_refused)
{
    if (geteuid() != 0) cr_skip_test("needs root: pmixrun runs as root and the tool as uid 65534 (nobody)");
    const std::string tmp = scratch_dir();
    // tcp: the usock socket is 0600, so nobody's tool would fail at connect()
    // and never reach pmixrun's rule; over loopback tcp the kernel still
    // names the tool's uid (psec/native).
    const Result result =
        run({"--tmpdir", tmp, "--mca", "ptl", "tcp", "-n", "1", INTRUDER_CLIENT, "foreign-tool"}, "", 60);
    remove_tree(tmp);
    cr_expect_eq(result.code, 0, "pmixrun exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    cr_expect(has_line(result.out, "foreign-tool: tool init as uid 65534: NO-PERMISSIONS"), "%s%s", result.out.c_str(),
              result.err.c_str());
    cr_expect_eq(count_lines_with(result.err, "a tool of uid 65534 may not attach to the pmixrun of uid 0"), 1, "%s",
                 result.err.c_str());
}
