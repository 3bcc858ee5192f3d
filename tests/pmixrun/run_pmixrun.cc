#include "run_pmixrun.h"

#include <sched.h>

#include <fstream>
#include <set>
#include <utility>

namespace pmixrun_test {

Result run(const std::vector<std::string> &args, const std::string &input, int seconds)
{
    return test_support::run(PMIXRUN, args, input, seconds);
}

Result run_program(const char *program, const std::vector<std::string> &args, int seconds)
{
    return test_support::run(program, args, "", seconds);
}

pid_t start(const std::vector<std::string> &args)
{
    return test_support::start(PMIXRUN, args);
}

std::string scratch_dir()
{
    return test_support::scratch_dir("pmixrun-test");
}

namespace {

std::string sysfs_word(int cpu, const char *name)
{
    std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/" + name);
    std::string word;
    in >> word;
    return word;
}

}  // namespace

int usable_cpus()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    return sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
}

int usable_cores()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 1;
    std::set<std::pair<std::string, std::string>> cores;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &mask)) cores.emplace(sysfs_word(cpu, "physical_package_id"), sysfs_word(cpu, "core_id"));
    }
    return cores.empty() ? 1 : static_cast<int>(cores.size());
}

}  // namespace pmixrun_test
