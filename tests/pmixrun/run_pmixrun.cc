#include "run_pmixrun.h"

namespace pmixrun_test {

Result run(const std::vector<std::string> &args, const std::string &input, int seconds)
{
    return test_support::run(PMIXRUN, args, input, seconds);
}

Result run_program(const char *program, const std::vector<std::string> &args, int seconds)
{
    return test_support::run(program, args, "", seconds);
}

pid_t start(const std::vector<std::string> &args) { return test_support::start(PMIXRUN, args); }

std::string scratch_dir() { return test_support::scratch_dir("pmixrun-test"); }

} // namespace pmixrun_test
