#include "mpirun_runner.h"

#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <set>

namespace compat_test {

std::vector<std::string> mpirun_args(int ranks, const std::string &program,
                                     const std::vector<std::string> &program_args)
{
    std::vector<std::string> args = {"--oversubscribe",     "--timeout", std::to_string(MPIRUN_TIMEOUT_SECONDS), "-n",
                                     std::to_string(ranks), program};
    args.insert(args.end(), program_args.begin(), program_args.end());
    return args;
}

Result mpirun(int ranks, const std::string &program, const std::vector<std::string> &program_args)
{
    Result result =
        test_support::run(MPIRUN, mpirun_args(ranks, program, program_args), "", MPIRUN_TIMEOUT_SECONDS + 15);
    cr_assert(!result.timed_out, "mpirun -n %d %s did not end:\n%s%s", ranks, program.c_str(), result.out.c_str(),
              result.err.c_str());
    return result;
}

std::string program_path(const char *name)
{
    return std::string(COMPAT_MPI_DIR) + "/" + name;
}

std::vector<LibpmixReport> libpmix_reports(const std::string &output)
{
    std::vector<LibpmixReport> reports;
    for (const std::string &line : test_support::lines_with(output, "; launcher ")) {
        char role[32], host[256], own[1024], launcher[64], theirs[1024];
        LibpmixReport report;
        if (std::sscanf(line.c_str(), "%31s %d pid %d on %255[^:]: libpmix %1023[^;]; launcher %63s libpmix %1023s",
                        role, &report.rank, &report.pid, host, own, launcher, theirs) != 7) {
            continue;
        }
        report.role = role;
        report.host = host;
        report.own_libpmix = own;
        report.launcher = launcher;
        report.launcher_libpmix = theirs;
        reports.push_back(report);
    }
    return reports;
}

namespace {

bool ours(const std::string &path)
{
    const std::string build_lib = std::string(std::getenv("PMIXPP_BUILD_DIR")) + "/lib/libpmix.so";
    return path.rfind(build_lib, 0) == 0;
}

// A process that has ended but whose parent (mpirun, gone itself) has not been
// reaped yet is a zombie: dead, only its exit status is left.
bool running(int pid)
{
    const std::string stat = test_support::read_text("/proc/" + std::to_string(pid) + "/stat");
    const std::size_t after_name = stat.rfind(") ");
    if (after_name == std::string::npos) return false;
    const char state = stat[after_name + 2];
    return state != 'Z' && state != 'X';
}

}  // namespace

void expect_our_libpmix(const std::string &output, const char *role, int ranks, const char *launcher)
{
    std::set<int> seen;
    for (const LibpmixReport &report : libpmix_reports(output)) {
        if (report.role != role) continue;
        seen.insert(report.rank);
        cr_expect(ours(report.own_libpmix), "%s %d mapped %s, not our build tree's libpmix", role, report.rank,
                  report.own_libpmix.c_str());
        cr_expect_str_eq(report.launcher.c_str(), launcher, "%s %d was started by %s", role, report.rank,
                         report.launcher.c_str());
        cr_expect(ours(report.launcher_libpmix), "%s %d: its %s mapped %s, not our build tree's libpmix", role,
                  report.rank, launcher, report.launcher_libpmix.c_str());
    }
    cr_expect_eq(static_cast<int>(seen.size()), ranks, "%d of %d %s processes reported their libpmix:\n%s",
                 static_cast<int>(seen.size()), ranks, role, output.c_str());
}

void expect_all_gone(const std::string &output)
{
    for (const LibpmixReport &report : libpmix_reports(output)) {
        cr_expect(!running(report.pid), "%s %d (pid %d) outlived its job", report.role.c_str(), report.rank,
                  report.pid);
    }
}

}  // namespace compat_test
