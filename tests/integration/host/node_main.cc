// itest_node: node B of the two-node job (two_node.h), as a program of its
// own. Run by cases/two_node_test.cc only:
//
//   itest_node <link fd> <namespace> <full|minimal> <collect|no-collect|group> <timeout ms>
//
// Exit 0 when this node's job went well, 1 when it did not (the verdict
// went to node A over the link), 2 on bad arguments, 3 on an exception.
#include "integration/host/two_node.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace pmixpp::itest;

namespace {

// itest_twonode sits next to this program (both in the clients directory).
std::string sibling(const char *name)
{
    char self[PATH_MAX] = {};
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string dir = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(".");
    dir = dir.substr(0, dir.rfind('/'));
    return dir + "/" + name;
}

}  // namespace

int main(int argc, char **argv)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
    TwoNodeScenario scenario;
    if (argc != 6 || !parse_style(argv[3], &scenario.style)) {
        std::fprintf(
            stderr, "usage: itest_node <link fd> <namespace> <full|minimal> <collect|no-collect|group> <timeout ms>\n");
        return 2;
    }
    const int fd = std::atoi(argv[1]);
    scenario.nspace = argv[2];
    scenario.collect = std::string(argv[4]) != "no-collect";
    scenario.group = std::string(argv[4]) == "group";
    const int timeout_ms = std::atoi(argv[5]);
    try {
        const NodeOutcome outcome = run_node(1, fd, scenario, sibling("itest_twonode"), timeout_ms);
        return outcome.mine.empty() ? 0 : 1;
    } catch (...) {
        return 3;
    }
}
