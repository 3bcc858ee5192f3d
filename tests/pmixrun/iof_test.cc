// A tool pulls the output of a job pmixrun runs (docs/iof.md): pmixrun hands
// every read to its PMIx server, which sends it to the pulling tool, the
// lines from before the pull out of its cache. See iof_tool.c.
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

}  // namespace

TestSuite(pmixrun_iof, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun_iof, a_tool_gets_a_ranks_stdout_and_stderr_in_order)
{
    const Result r = run({"--tmpdir", g_tmp, "-n", "2", IOF_TOOL}, "", 60);
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_expect(has_line(r.out, "iof-tool: stdout ok, stderr ok"), "out:\n%s", r.out.c_str());
    // Rank 1 does not read stdin (--stdin 0, the default): nobody to push to.
    cr_expect(has_line(r.out, "iof-tool: push NOT-FOUND"), "out:\n%s", r.out.c_str());
    // pmixrun still writes the job's output itself.
    cr_expect(has_line(r.out, "out 19"), "%s", r.out.c_str());
    cr_expect(has_line(r.err, "err 19"), "%s", r.err.c_str());
}

// --stdin 1 --stdin-tool: rank 1's stdin is what the tool pushes (pmixrun's
// own stdin is not read), ended by PMIX_IOF_COMPLETE; the push is answered
// once rank 1's pipe took it.
Test(pmixrun_iof, a_tool_feeds_a_ranks_stdin)
{
    const Result r =
        run({"--tmpdir", g_tmp, "--stdin", "1", "--stdin-tool", "-n", "2", IOF_TOOL, "--read-stdin"}, "", 60);
    cr_assert_eq(r.code, 0, "out:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
    cr_expect(has_line(r.out, "iof-tool: push SUCCESS"), "out:\n%s", r.out.c_str());
    cr_expect(has_line(r.out, "iof-tool: stdin delivered"), "out:\n%s", r.out.c_str());
    cr_expect(has_line(r.out, "stdin [hello"), "%s", r.out.c_str());
}
