// The variables pmixrun gives every process for Open MPI (open_mpi_env.h):
// the placeholder daemon that makes Open MPI 4.x read its job from PMIx,
// OMPI_COMM_WORLD_*, yield-when-idle exactly when the node is
// oversubscribed, and -x overriding them. (compat_open_mpi runs real Open
// MPI programs under pmixrun.)
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

Result job(std::vector<std::string> args)
{
    args.insert(args.begin(), {"--tmpdir", g_tmp});
    return run(args);
}

const char *kShow =
    "echo \"r=$OMPI_COMM_WORLD_RANK s=$OMPI_COMM_WORLD_SIZE lr=$OMPI_COMM_WORLD_LOCAL_RANK "
    "ls=$OMPI_COMM_WORLD_LOCAL_SIZE y=$OMPI_MCA_mpi_yield_when_idle d=$OMPI_MCA_orte_local_daemon_uri\"";

}  // namespace

TestSuite(pmixrun_open_mpi_env, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(pmixrun_open_mpi_env, every_rank_is_told_its_world_and_the_placeholder_daemon)
{
    const Result r = job({"-n", "2", "sh", "-c", kShow});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    for (int rank = 0; rank < 2; ++rank) {
        const std::string line = "r=" + std::to_string(rank) + " s=2 lr=" + std::to_string(rank) +
                                 " ls=2 y=" + (2 > usable_cores() ? "1" : "") + " d=0.0;tcp://127.0.0.1:0";
        cr_expect(has_line(r.out, line), "missing '%s' in:\n%s", line.c_str(), r.out.c_str());
    }
}

Test(pmixrun_open_mpi_env, yield_when_idle_only_when_the_node_is_oversubscribed)
{
    const Result alone = job({"-n", "1", "sh", "-c", kShow});
    cr_assert_eq(alone.code, 0, "%s", alone.err.c_str());
    cr_expect_eq(count_lines_with(alone.out, " y= "), 1, "one rank told to yield:\n%s", alone.out.c_str());
    const int ranks = usable_cores() + 1;
    const Result crowded = job({"-n", std::to_string(ranks), "sh", "-c", kShow});
    cr_assert_eq(crowded.code, 0, "%s", crowded.err.c_str());
    cr_expect_eq(count_lines_with(crowded.out, " y=1 "), ranks, "%d ranks on %d cores not told to yield:\n%s", ranks,
                 usable_cores(), crowded.out.c_str());
}

Test(pmixrun_open_mpi_env, x_overrides_them)
{
    const Result r =
        job({"-x", "OMPI_COMM_WORLD_RANK=7", "-x", "OMPI_MCA_orte_local_daemon_uri=mine", "sh", "-c", kShow});
    cr_assert_eq(r.code, 0, "%s", r.err.c_str());
    cr_expect(r.out.find("r=7 s=1 ") != std::string::npos && r.out.find(" d=mine") != std::string::npos, "%s",
              r.out.c_str());
}
