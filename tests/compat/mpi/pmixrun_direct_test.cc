// Debian's Open MPI 4.1 programs started by pmixrun itself, no mpirun: one
// MPI_COMM_WORLD of all the ranks, collectives, MPI_Comm_spawn through
// pmixrun's spawn upcall, and MPI_Abort's status as pmixrun's exit code and
// its help text on pmixrun's stderr
// (src/bin/pmixrun/open_mpi_env.h says what Open MPI needs to see).
#include "mpirun_runner.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

using namespace compat_test;
using test_support::has_line;

namespace {

Result pmixrun(int ranks, const std::string &program, const std::vector<std::string> &args = {})
{
    std::vector<std::string> argv = {"--timeout", "90", "-n", std::to_string(ranks), program};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run(PMIXRUN, argv, "", 120);
}

std::string core_id(int cpu)
{
    std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/core_id");
    std::string id;
    in >> id;
    return id;
}

// The node the placement case was written for (this CI machine).
bool two_single_thread_cores()
{
    return ::sysconf(_SC_NPROCESSORS_ONLN) == 2 && !core_id(0).empty() && core_id(0) != core_id(1);
}

void expect_one_world(int ranks)
{
    const Result result = pmixrun(ranks, program_path("hello_allreduce"));
    cr_assert_eq(result.code, 0, "pmixrun -n %d hello_allreduce exited %d:\n%s%s", ranks, result.code,
                 result.out.c_str(), result.err.c_str());
    const int sum = ranks * (ranks + 1) / 2;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line =
            "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ": allreduce sum " + std::to_string(sum);
        cr_expect(has_line(result.out, line), "missing \"%s\" (a singleton says \"of 1\") in:\n%s", line.c_str(),
                  result.out.c_str());
    }
    expect_our_libpmix(result.out, "rank", ranks, "pmixrun");
}

}  // namespace

Test(open_mpi_on_pmixrun, two_ranks_are_one_world)
{
    expect_one_world(2);
}
Test(open_mpi_on_pmixrun, four_ranks_are_one_world)
{
    expect_one_world(4);
}

Test(open_mpi_on_pmixrun, ring_and_1000_barriers)
{
    const Result result = pmixrun(3, program_path("ring_barrier"));
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    for (const char *line :
         {"rank 0 got 2 from 2", "rank 1 got 0 from 0", "rank 2 got 1 from 1", "1000 barriers done"}) {
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line, result.out.c_str());
    }
}

Test(open_mpi_on_pmixrun, comm_spawn_goes_through_pmixrun)
{
    const Result result = pmixrun(2, program_path("spawn_children"));
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    for (const char *line : {"parent 0: 2 children, their sum 3", "parent 1: 2 children, their sum 3",
                             "child 0: parents' sum 201", "child 1: parents' sum 201"}) {
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line, result.out.c_str());
    }
    expect_our_libpmix(result.out, "child", 2, "pmixrun");
}

Test(open_mpi_on_pmixrun, abort_status_is_pmixruns_exit_code)
{
    const Result result = pmixrun(2, program_path("abort_rank"));
    cr_expect_eq(result.code, 42, "pmixrun exited %d, not MPI_Abort's 42:\n%s", result.code, result.err.c_str());
    // Open MPI's help box comes through PMIx_Log (pmixrun/open_mpi_log.h);
    // the rank waits for the log's answer before it aborts, so it is there.
    cr_expect(result.err.find("MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD") != std::string::npos,
              "%s", result.err.c_str());
    expect_all_gone(result.out);
}

// MPI_Comm_spawn's "map_by" and "bind_to" info keys, as Open MPI hands them
// to pmixrun (PMIX_MAPBY, PMIX_BINDTO): the child goes on the core its
// parent left free, unbound with bind_to none, and an unreadable map_by is
// named while the spawn goes on.
Test(open_mpi_on_pmixrun, comm_spawn_info_keys_place_the_child)
{
    if (!two_single_thread_cores()) cr_skip_test("written for a node of 2 cores of one thread each");
    Result result = pmixrun(1, program_path("spawn_placed"), {"core", "-"});
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    cr_expect(has_line(result.out, "parent cpus 0"), "%s", result.out.c_str());
    cr_expect(has_line(result.out, "child cpus 1"), "%s", result.out.c_str());
    result = pmixrun(1, program_path("spawn_placed"), {"core", "none"});
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    cr_expect(has_line(result.out, "child cpus 0,1"), "%s", result.out.c_str());
    result = pmixrun(1, program_path("spawn_placed"), {"diagonal", "-"});
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    cr_expect(has_line(result.out, "child cpus 1"), "%s", result.out.c_str());
    cr_expect(result.err.find("PMIX_MAPBY diagonal") != std::string::npos, "%s", result.err.c_str());
}
