// OpenPMIx's own group examples (Debian's libpmix-dev ships their source;
// built here unmodified) under `pmixrun -n 4`, judged by what they print:
// they exit 0 even when a call failed, so their lines are the verdict.
#include "run_pmixrun.h"

#include <criterion/criterion.h>

#include <pmix_common.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace pmixrun_test;

namespace {

std::string g_tmp;

// OpenPMIx's examples never free what PMIx_Group_construct hands them
// (group.c keeps its results): under ASan their own leaks are no finding of
// ours, so LeakSanitizer is off for this suite's processes.
void no_leak_check_for_the_examples()
{
    const char *options = std::getenv("ASAN_OPTIONS");
    if (options == nullptr) return;
    setenv("ASAN_OPTIONS", (std::string(options) + ":detect_leaks=0").c_str(), 1);
}

void make_tmp()
{
    no_leak_check_for_the_examples();
    g_tmp = scratch_dir();
}
void drop_tmp()
{
    remove_tree(g_tmp);
}

Result job(const char *program)
{
    return run({"--tmpdir", g_tmp, "-n", "4", program}, "", 90);
}

bool mentions(const Result &r, const std::string &text)
{
    return r.out.find(text) != std::string::npos || r.err.find(text) != std::string::npos;
}

void expect_no_failure(const Result &r)
{
    cr_expect_eq(r.code, 0, "exit %d\nout:\n%s\nerr:\n%s", r.code, r.out.c_str(), r.err.c_str());
    cr_expect(!mentions(r, "failed"), "a call failed:\nout:\n%s\nerr:\n%s", r.out.c_str(), r.err.c_str());
}

}  // namespace

TestSuite(pmixrun_groups, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

// Ranks 0, 2 and 3 construct "ourgroup" with a context id and destruct it.
Test(pmixrun_groups, openpmix_group_example)
{
    const Result r = job(OPENPMIX_GROUP);
    expect_no_failure(r);
    for (int rank : {0, 2, 3}) {
        const std::string done = std::to_string(rank) + " Group construct complete with status SUCCESS KEY " +
                                 PMIX_GROUP_CONTEXT_ID + " CID ";
        cr_expect(mentions(r, done), "no \"%s\" in:\n%s", done.c_str(), r.err.c_str());
    }
    cr_expect(!mentions(r, "1 executing Group_construct"), "rank 1 is no member:\n%s", r.err.c_str());
}

// Every rank constructs, then each reads the others' data committed after
// the construct.
Test(pmixrun_groups, openpmix_group_dmodex_example)
{
    const Result r = job(OPENPMIX_GROUP_DMODEX);
    expect_no_failure(r);
    for (int rank = 0; rank < 4; ++rank) {
        const std::string done =
            std::to_string(rank) + " Group construct complete with status SUCCESS KEY " + PMIX_GROUP_CONTEXT_ID;
        cr_expect(mentions(r, done), "no \"%s\" in:\n%s", done.c_str(), r.err.c_str());
        const std::string complete = ":" + std::to_string(rank) + " COMPLETE";
        cr_expect(mentions(r, complete), "no \"%s\" in:\n%s", complete.c_str(), r.err.c_str());
    }
    cr_expect(!mentions(r, "wrong"), "a value read back wrong:\n%s", r.err.c_str());
}

// Every rank constructs with a context id and PMIX_GROUP_INFO holding its
// PMIX_GROUP_LOCAL_CID (1234 + rank); after the destruct each reads every
// rank's local cid, qualified by the group's context id.
Test(pmixrun_groups, openpmix_group_lcl_cid_example)
{
    const Result r = job(OPENPMIX_GROUP_LCL_CID);
    expect_no_failure(r);
    for (int reader = 0; reader < 4; ++reader) {
        for (int rank = 0; rank < 4; ++rank) {
            const std::string read = ":" + std::to_string(reader) + ": PMIx_Get LOCAL CID for rank " +
                                     std::to_string(rank) + " SUCCESS value";
            cr_expect(mentions(r, read), "no \"%s\" in:\n%s", read.c_str(), r.err.c_str());
        }
    }
    cr_expect(!mentions(r, "wrong"), "a local cid read back wrong:\n%s", r.err.c_str());
}
