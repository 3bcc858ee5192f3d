// pmixrun as the host that programs written for PRRTE expect:
// the queries tools make answered with PRRTE's value types, informational
// job-control directives accepted, a failing rank announced to the rest of
// its job before they are terminated, and job names outside the reserved
// "pmix" prefix.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <string>
#include <vector>

using namespace pmixrun_test;

namespace {

std::string g_tmp;

void make_tmp()
{
    g_tmp = scratch_dir();
}
void drop_tmp()
{
    remove_tree(g_tmp);
}

Result job(std::vector<std::string> args, int seconds = 60)
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    return run(args, "", seconds);
}

}  // namespace

TestSuite(pmixrun_host, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun_host, tools_queries_are_answered_with_prrtes_value_types)
{
    const Result r = job({"-n", "3", PROBE, "--query"});
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_expect(r.out.find("query pmix.qry.spawn: SUCCESS \"pmix.wdir,") != std::string::npos, "%s", r.out.c_str());
    // pmixrun offers no debugger stops, and says so with an empty list.
    cr_expect(has_line(r.out, "query pmix.qry.debug: SUCCESS \"\""), "%s", r.out.c_str());
    cr_expect(r.out.find("query pmix.srvr.uri: SUCCESS \"ppx-") != std::string::npos, "%s", r.out.c_str());
    cr_expect(has_line(r.out, "query job size: SUCCESS 3"), "%s", r.out.c_str());
    // OpenPMIx's tool example prints every value of a row with %s.
    cr_expect(has_line(r.out, "nsinfo pmix.nspace PMIX_STRING"), "%s", r.out.c_str());
    cr_expect(has_line(r.out, "nsinfo pmix.cmd.line PMIX_STRING"), "%s", r.out.c_str());
    cr_expect_eq(count_lines_with(r.out, "nsinfo "), 2, "only strings, one job:\n%s", r.out.c_str());
}

Test(pmixrun_host, informational_job_control_directives_are_accepted)
{
    const Result r = job({"-n", "1", PROBE, "--job-info"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(has_line(r.out, "job control preemptible: SUCCESS"), "%s", r.out.c_str());
}

// The others hear PMIX_ERR_PROC_ABORTED naming rank 0 and its exit code, and
// finish on their own before any SIGTERM.
Test(pmixrun_host, a_failing_rank_is_announced_before_the_job_is_terminated)
{
    const Result r = job({"-n", "3", PROBE, "--fail-first"});
    cr_assert_eq(r.code, 1, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_expect(has_line(r.out, "rank 1 heard rank 0 fail with 1"), "%s", r.out.c_str());
    cr_expect(has_line(r.out, "rank 2 heard rank 0 fail with 1"), "%s", r.out.c_str());
    cr_expect(r.err.find("killed by signal") == std::string::npos, "%s", r.err.c_str());
}

// The standard reserves "pmix" for its keys; OpenPMIx refuses keys that
// programs build from their namespace when it begins so.
Test(pmixrun_host, job_names_do_not_use_the_reserved_prefix)
{
    const Result r = job({"-n", "1", PROBE, "--env", "PMIX_NAMESPACE"});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.out.find("env PMIX_NAMESPACE ppx-") != std::string::npos, "%s", r.out.c_str());
}
