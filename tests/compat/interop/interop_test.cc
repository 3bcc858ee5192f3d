// Processes on Debian's OpenPMIx 4.2.2 under pmixrun on our library: the
// two talk OpenPMIx's wire protocol (server/openpmix/). pmixrun loads our
// build tree's libpmix.so.2 (CTest's LD_LIBRARY_PATH); the clients load
// Debian's, by their DT_RPATH (openpmix_client) or because pmixrun hands
// them an empty LD_LIBRARY_PATH (Open MPI's programs), and say so.
// Then the other way round (client/openpmix/): processes on our library
// under servers on Debian's OpenPMIx, pmixrun and Open MPI's mpirun.
#include "mpirun_runner.h"

#include <criterion/criterion.h>

#include <string>
#include <vector>

using namespace compat_test;
using test_support::has_line;

namespace {

// A line that starts with `head` and ends with `tail`.
bool has_line_ending(const std::string &text, const std::string &head, const std::string &tail)
{
    for (const std::string &line : test_support::lines_of(text)) {
        if (line.rfind(head, 0) == 0 && line.size() >= tail.size() &&
            line.compare(line.size() - tail.size(), tail.size(), tail) == 0) {
            return true;
        }
    }
    return false;
}

// Every rank but 0 got rank 0's event (openpmix_client.c), whichever
// library each of them and the server run.
void expect_event_passed(const Result &result, int ranks)
{
    for (int rank = 1; rank < ranks; ++rank) {
        const std::string line = "client " + std::to_string(rank) + ": rank 0's event came";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s%s", line.c_str(), result.out.c_str(),
                  result.err.c_str());
    }
}

bool ours(const std::string &path)
{
    return path.rfind(std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib/libpmix.so", 0) == 0;
}

// Debian's OpenPMIx, by whichever of its paths the loader took.
bool debians(const std::string &path)
{
    return path.rfind(std::string(DEBIAN_PMIX_LIBDIR) + "/libpmix.so", 0) == 0 ||
           path.rfind("/usr/lib/x86_64-linux-gnu/libpmix.so", 0) == 0 ||
           path.rfind("/lib/x86_64-linux-gnu/libpmix.so", 0) == 0;
}

Result pmixrun(const std::vector<std::string> &args)
{
    std::vector<std::string> argv = {"--timeout", "60"};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run(PMIXRUN, argv, "", 90);
}

// Every rank reported, each on Debian's OpenPMIx, started by pmixrun on ours.
void expect_openpmix_ranks(const Result &result, const char *role, int ranks)
{
    int seen = 0;
    for (const LibpmixReport &report : libpmix_reports(result.out)) {
        if (report.role != role) continue;
        ++seen;
        cr_expect(debians(report.own_libpmix), "%s %d mapped %s, not Debian's OpenPMIx", role, report.rank,
                  report.own_libpmix.c_str());
        cr_expect_str_eq(report.launcher.c_str(), "pmixrun", "%s %d was started by %s", role, report.rank,
                         report.launcher.c_str());
        cr_expect(ours(report.launcher_libpmix), "%s %d: pmixrun mapped %s, not our build tree's libpmix", role,
                  report.rank, report.launcher_libpmix.c_str());
    }
    cr_expect_eq(seen, ranks, "%d of %d %s processes reported their libpmix:\n%s%s", seen, ranks, role,
                 result.out.c_str(), result.err.c_str());
}

void expect_clients(int ranks)
{
    const Result result = pmixrun({"-n", std::to_string(ranks), std::string(INTEROP_DIR) + "/openpmix_client"});
    cr_assert_eq(result.code, 0, "pmixrun -n %d openpmix_client exited %d:\n%s%s", ranks, result.code,
                 result.out.c_str(), result.err.c_str());
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "client " + std::to_string(rank) + " of " + std::to_string(ranks) + ": local rank " +
                                 std::to_string(rank) + " of " + std::to_string(ranks) + ", every peer's key read";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s%s", line.c_str(), result.out.c_str(),
                  result.err.c_str());
    }
    expect_event_passed(result, ranks);
    expect_openpmix_ranks(result, "client", ranks);
}

}  // namespace

// Init, job data, put, commit, a collecting fence, every peer's key, finalize.
Test(openpmix_clients_on_pmixrun, two_ranks, .timeout = 120)
{
    expect_clients(2);
}

Test(openpmix_clients_on_pmixrun, four_ranks, .timeout = 120)
{
    expect_clients(4);
}

// One job, both libraries (a container's OpenPMIx beside a host install):
// every rank reads every other's data, in both orders of the ranks.
void expect_mixed(int ours_first, int theirs)
{
    const std::string on_our_library = std::string(INTEROP_DIR) + "/interop_client_ours";
    const std::string openpmix = std::string(INTEROP_DIR) + "/openpmix_client";
    const std::vector<std::string> first = {"-n", std::to_string(ours_first), on_our_library};
    const std::vector<std::string> second = {"-n", std::to_string(theirs), openpmix};
    std::vector<std::string> args = ours_first >= theirs ? first : second;
    args.push_back(":");
    const std::vector<std::string> &rest = ours_first >= theirs ? second : first;
    args.insert(args.end(), rest.begin(), rest.end());
    const Result result = pmixrun(args);
    const int ranks = ours_first + theirs;
    cr_assert_eq(result.code, 0, "pmixrun of a mixed job exited %d:\n%s%s", result.code, result.out.c_str(),
                 result.err.c_str());
    int on_ours = 0;
    int on_openpmix = 0;
    for (const LibpmixReport &report : libpmix_reports(result.out)) {
        on_ours += ours(report.own_libpmix) ? 1 : 0;
        on_openpmix += debians(report.own_libpmix) ? 1 : 0;
    }
    cr_expect_eq(on_ours, ours_first, "%d ranks on our library, expected %d:\n%s", on_ours, ours_first,
                 result.out.c_str());
    cr_expect_eq(on_openpmix, theirs, "%d ranks on OpenPMIx, expected %d:\n%s", on_openpmix, theirs,
                 result.out.c_str());
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "client " + std::to_string(rank) + " of " + std::to_string(ranks) + ": local rank " +
                                 std::to_string(rank) + " of " + std::to_string(ranks) + ", every peer's key read";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s%s", line.c_str(), result.out.c_str(),
                  result.err.c_str());
    }
    expect_event_passed(result, ranks);
}

// pmixrun announces a rank's exit marked for named handlers only: an
// OpenPMIx process that registered for PMIX_EVENT_PROC_TERMINATED hears it,
// its catch-all handler does not (Open MPI's would abort the job).
Test(openpmix_clients_on_pmixrun, exit_event_reaches_named_handlers_only, .timeout = 120)
{
    const std::string probe = std::string(INTEROP_DIR) + "/openpmix_probe_client";
    const Result result = pmixrun({"-n", "2", probe, "--watch-exit"});
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    cr_expect(has_line(result.out, "rank 0 saw rank 1 terminate with 0"), "%s%s", result.out.c_str(),
              result.err.c_str());
    cr_expect(has_line(result.out, "rank 0's default handler saw 0 events"), "%s", result.out.c_str());
}

// Our client library makes its PMIX_PROCDIR when it first asks for it;
// OpenPMIx's does not, so pmixrun's server makes it when such a client
// connects: the directory is there for both.
Test(openpmix_clients_on_pmixrun, procdir_is_there_when_asked_for, .timeout = 120)
{
    const std::string probe = std::string(INTEROP_DIR) + "/openpmix_probe_client";
    const Result result = pmixrun({"-n", "2", probe, "--procdir"});
    cr_assert_eq(result.code, 0, "exited %d:\n%s%s", result.code, result.out.c_str(), result.err.c_str());
    std::size_t found = 0;
    for (std::size_t at = result.out.find("procdir "); at != std::string::npos;
         at = result.out.find("procdir ", at + 1)) {
        const std::string line = result.out.substr(at, result.out.find('\n', at) - at);
        cr_expect(line.size() > 7 && line.compare(line.size() - 7, 7, " exists") == 0, "%s", line.c_str());
        ++found;
    }
    cr_expect_eq(found, 2u, "%s", result.out.c_str());
}

Test(mixed_job_on_pmixrun, ours_first, .timeout = 120)
{
    expect_mixed(2, 2);
}

Test(mixed_job_on_pmixrun, openpmix_first, .timeout = 120)
{
    expect_mixed(1, 3);
}

// A program built with Debian's mpicc, as a user runs it: Open MPI's ranks
// on Debian's OpenPMIx, pmixrun on ours, no LD_LIBRARY_PATH.
Test(open_mpi_on_pmixrun_interop, hello_allreduce, .timeout = 120)
{
    const int ranks = 2;
    const Result result =
        pmixrun({"-n", std::to_string(ranks), "-x", "LD_LIBRARY_PATH=", program_path("hello_allreduce")});
    cr_assert_eq(result.code, 0, "pmixrun -n %d hello_allreduce exited %d:\n%s%s", ranks, result.code,
                 result.out.c_str(), result.err.c_str());
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ": allreduce sum 3";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line.c_str(), result.out.c_str());
    }
    expect_openpmix_ranks(result, "rank", ranks);
}

// The same way: MPI_Comm_split_type (the node's ranks from the job data
// OpenPMIx's gds/hash reads), MPI_Comm_spawn through pmixrun's spawn upcall,
// and MPI_Abort's status as pmixrun's exit code.
Test(open_mpi_on_pmixrun_interop, node_split_spawn_and_abort, .timeout = 180)
{
    Result result = pmixrun({"-n", "3", "-x", "LD_LIBRARY_PATH=", program_path("node_split")});
    cr_assert_eq(result.code, 0, "pmixrun -n 3 node_split exited %d:\n%s%s", result.code, result.out.c_str(),
                 result.err.c_str());
    for (int rank = 0; rank < 3; ++rank) {
        const std::string line = "rank " + std::to_string(rank) + " on ";
        cr_expect(has_line_ending(result.out, line, "of 3"), "rank %d did not see 3 node-local ranks:\n%s", rank,
                  result.out.c_str());
    }
    expect_openpmix_ranks(result, "rank", 3);

    // The children inherit pmixrun's own environment, not -x: no
    // LD_LIBRARY_PATH there either (pmixrun finds ours by its RUNPATH).
    result = test_support::run(
        "/usr/bin/env",
        {"-u", "LD_LIBRARY_PATH", PMIXRUN, "--timeout", "60", "-n", "2", program_path("spawn_children")}, "", 90);
    cr_assert_eq(result.code, 0, "pmixrun -n 2 spawn_children exited %d:\n%s%s", result.code, result.out.c_str(),
                 result.err.c_str());
    for (const char *line : {"parent 0: 2 children, their sum 3", "parent 1: 2 children, their sum 3",
                             "child 0: parents' sum 201", "child 1: parents' sum 201"}) {
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line, result.out.c_str());
    }
    expect_openpmix_ranks(result, "child", 2);

    result = pmixrun({"-n", "2", "-x", "LD_LIBRARY_PATH=", program_path("abort_rank")});
    cr_expect_eq(result.code, 42, "pmixrun exited %d, not MPI_Abort's 42:\n%s", result.code, result.err.c_str());
    cr_expect(result.err.find("MPI_ABORT was invoked on rank 1") != std::string::npos, "%s", result.err.c_str());
    expect_all_gone(result.out);
}

// ---- our library's processes under a server on Debian's OpenPMIx

// pmixrun on Debian's OpenPMIx (an empty LD_LIBRARY_PATH), its ranks told
// to load our build tree's library.
Result pmixrun_on_openpmix(const std::vector<std::string> &args, const std::string &setting = "PMIXPP_TEST=1")
{
    const std::string our_lib = std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib";
    std::vector<std::string> argv = {"LD_LIBRARY_PATH=" + std::string(DEBIAN_PMIX_LIBDIR),
                                     setting,
                                     PMIXRUN,
                                     "--timeout",
                                     "60",
                                     "-x",
                                     "LD_LIBRARY_PATH=" + our_lib};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run("/usr/bin/env", argv, "", 90);
}

// Every `role` process on our library, its launcher on Debian's OpenPMIx.
void expect_our_ranks_under_openpmix(const Result &result, const char *role, int ranks, const char *launcher)
{
    int seen = 0;
    for (const LibpmixReport &report : libpmix_reports(result.out)) {
        if (report.role != role) continue;
        ++seen;
        cr_expect(ours(report.own_libpmix), "%s %d mapped %s, not our build tree's libpmix", role, report.rank,
                  report.own_libpmix.c_str());
        cr_expect_str_eq(report.launcher.c_str(), launcher, "%s %d was started by %s", role, report.rank,
                         report.launcher.c_str());
        cr_expect(debians(report.launcher_libpmix), "%s %d: %s mapped %s, not Debian's OpenPMIx", role, report.rank,
                  launcher, report.launcher_libpmix.c_str());
    }
    cr_expect_eq(seen, ranks, "%d of %d %s processes reported their libpmix:\n%s%s", seen, ranks, role,
                 result.out.c_str(), result.err.c_str());
}

void expect_clients_read_every_peer(const Result &result, int ranks)
{
    expect_event_passed(result, ranks);
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "client " + std::to_string(rank) + " of " + std::to_string(ranks) + ": local rank " +
                                 std::to_string(rank) + " of " + std::to_string(ranks) + ", every peer's key read";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s%s", line.c_str(), result.out.c_str(),
                  result.err.c_str());
    }
}

// Init (OpenPMIx's handshake, its job data into our store), put, commit,
// two barriers, a collecting fence, every peer's key through the server's
// get, finalize.
void expect_our_clients_under_openpmix(int ranks)
{
    const Result result =
        pmixrun_on_openpmix({"-n", std::to_string(ranks), std::string(INTEROP_DIR) + "/interop_client_ours"});
    cr_assert_eq(result.code, 0, "pmixrun (on OpenPMIx) -n %d interop_client_ours exited %d:\n%s%s", ranks, result.code,
                 result.out.c_str(), result.err.c_str());
    expect_clients_read_every_peer(result, ranks);
    expect_our_ranks_under_openpmix(result, "client", ranks, "pmixrun");
}

Test(our_clients_on_openpmix_pmixrun, two_ranks, .timeout = 120)
{
    expect_our_clients_under_openpmix(2);
}

Test(our_clients_on_openpmix_pmixrun, four_ranks, .timeout = 120)
{
    expect_our_clients_under_openpmix(4);
}

// Both libraries in one job again, the server on OpenPMIx this time. Its
// server keeps one gds module per namespace, set by whichever client
// connected last: ours ask for gds/hash, so the job's OpenPMIx clients must
// use hash too (PMIX_MCA_gds=hash); with ds21 they lose their job data.
Test(our_clients_on_openpmix_pmixrun, mixed_job, .timeout = 120)
{
    const Result result = pmixrun_on_openpmix({"-n", "2", std::string(INTEROP_DIR) + "/interop_client_ours", ":", "-n",
                                               "2", std::string(INTEROP_DIR) + "/openpmix_client"},
                                              "PMIX_MCA_gds=hash");
    cr_assert_eq(result.code, 0, "pmixrun (on OpenPMIx) of a mixed job exited %d:\n%s%s", result.code,
                 result.out.c_str(), result.err.c_str());
    expect_clients_read_every_peer(result, 4);
    int on_ours = 0;
    for (const LibpmixReport &report : libpmix_reports(result.out)) on_ours += ours(report.own_libpmix) ? 1 : 0;
    cr_expect_eq(on_ours, 2, "%d ranks on our library, expected 2:\n%s", on_ours, result.out.c_str());
}

// Open MPI's own launcher: mpirun (ORTE's PMIx server on Debian's OpenPMIx),
// its ranks on our library (-x LD_LIBRARY_PATH), as a user with pmixpp
// installed beside Debian's Open MPI runs them.
Test(our_ranks_under_open_mpi_mpirun, hello_allreduce, .timeout = 120)
{
    const int ranks = 4;
    const std::string our_lib = std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib";
    std::vector<std::string> argv = {"LD_LIBRARY_PATH=", MPIRUN, "-x", "LD_LIBRARY_PATH=" + our_lib};
    const std::vector<std::string> rest = mpirun_args(ranks, program_path("hello_allreduce"));
    argv.insert(argv.end(), rest.begin(), rest.end());
    const Result result = test_support::run("/usr/bin/env", argv, "", 90);
    cr_assert_eq(result.code, 0, "mpirun (on OpenPMIx) -n %d hello_allreduce on ours exited %d:\n%s%s", ranks,
                 result.code, result.out.c_str(), result.err.c_str());
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ": allreduce sum 10";
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line.c_str(), result.out.c_str());
    }
    expect_our_ranks_under_openpmix(result, "rank", ranks, "mpirun");
}

Result mpirun_with_our_ranks(int ranks, const char *program)
{
    const std::string our_lib = std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib";
    std::vector<std::string> argv = {"LD_LIBRARY_PATH=", MPIRUN, "-x", "LD_LIBRARY_PATH=" + our_lib};
    const std::vector<std::string> rest = mpirun_args(ranks, program_path(program));
    argv.insert(argv.end(), rest.begin(), rest.end());
    return test_support::run("/usr/bin/env", argv, "", 90);
}

// Split, spawn (the link carries OpenPMIx's spawn; the children are ours
// too) and abort, our ranks under mpirun.
Test(our_ranks_under_open_mpi_mpirun, node_split_spawn_and_abort, .timeout = 180)
{
    Result result = mpirun_with_our_ranks(3, "node_split");
    cr_assert_eq(result.code, 0, "mpirun -n 3 node_split on ours exited %d:\n%s%s", result.code, result.out.c_str(),
                 result.err.c_str());
    for (int rank = 0; rank < 3; ++rank) {
        const std::string line = "rank " + std::to_string(rank) + " on ";
        cr_expect(has_line_ending(result.out, line, "of 3"), "rank %d did not see 3 node-local ranks:\n%s", rank,
                  result.out.c_str());
    }
    expect_our_ranks_under_openpmix(result, "rank", 3, "mpirun");

    result = mpirun_with_our_ranks(2, "spawn_children");
    cr_assert_eq(result.code, 0, "mpirun -n 2 spawn_children on ours exited %d:\n%s%s", result.code, result.out.c_str(),
                 result.err.c_str());
    for (const char *line : {"parent 0: 2 children, their sum 3", "child 1: parents' sum 201"}) {
        cr_expect(has_line(result.out, line), "missing \"%s\" in:\n%s", line, result.out.c_str());
    }
    expect_our_ranks_under_openpmix(result, "child", 2, "mpirun");

    result = mpirun_with_our_ranks(2, "abort_rank");
    cr_expect_eq(result.code, 42, "mpirun exited %d, not MPI_Abort's 42:\n%s", result.code, result.err.c_str());
    expect_all_gone(result.out);
}
