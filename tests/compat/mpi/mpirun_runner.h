// Runs Debian's mpirun over our libpmix.so.2 (the environment is set by
// CTest: LD_LIBRARY_PATH names the build tree first) and reads what the
// compat programs print about themselves.
#ifndef PMIXPP_TESTS_COMPAT_MPIRUN_RUNNER_H
#define PMIXPP_TESTS_COMPAT_MPIRUN_RUNNER_H

#include "support/child_process.h"

#include <string>
#include <vector>

namespace compat_test {

using test_support::Result;

// Every mpirun is bounded twice: by its own --timeout, which tears the job
// down cleanly, and by the runner's deadline a little later.
constexpr int MPIRUN_TIMEOUT_SECONDS = 90;

// The arguments that put `ranks` processes of `program` on this node.
std::vector<std::string> mpirun_args(int ranks, const std::string &program,
                                     const std::vector<std::string> &program_args = {});
Result mpirun(int ranks, const std::string &program, const std::vector<std::string> &program_args = {});
std::string program_path(const char *name);

// One "ROLE R pid P on HOST: libpmix A; launcher L libpmix B" line.
struct LibpmixReport {
    std::string role;
    int rank = -1;
    int pid = -1;
    std::string host;
    std::string own_libpmix;
    std::string launcher;
    std::string launcher_libpmix;
};
std::vector<LibpmixReport> libpmix_reports(const std::string &output);

// Fails the test unless `ranks` reports of `role` came, one per rank, each
// naming our build tree's libpmix in the process and in its launcher.
void expect_our_libpmix(const std::string &output, const char *role, int ranks, const char *launcher = "mpirun");
// Fails the test if any of the reported processes still exists.
void expect_all_gone(const std::string &output);

}  // namespace compat_test

#endif
