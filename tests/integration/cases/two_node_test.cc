// A job over two "nodes" on one machine (integration/host/two_node.h): the
// test process is node A, and it forks and execs node B (itest_node); each
// runs its own host and PMIx server and they carry the job's collectives to
// each other over a socket pair, as a resource manager does over its network.
#include "integration/cases/itest_support.h"
#include "integration/host/two_node.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace pmixpp::itest;

TestSuite(two_nodes, .timeout = 240);

namespace {

int wait_child(pid_t pid, int timeout_ms)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status;
}

// Node B: itest_node with its end of the link (kept open across exec).
pid_t start_node_b(int fd, const TwoNodeScenario &scenario)
{
    const std::string program = client_path("itest_node");
    const std::vector<std::string> args = {program,
                                           std::to_string(fd),
                                           scenario.nspace,
                                           style_name(scenario.style),
                                           scenario.group     ? "group"
                                           : scenario.collect ? "collect"
                                                              : "no-collect",
                                           std::to_string(kJobTimeoutMs)};
    std::vector<char *> argv;
    for (const std::string &arg : args) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    const pid_t child = fork();
    if (child == 0) {
        // Async-signal-safe calls only: Criterion's worker has threads.
        if (fcntl(fd, F_SETFD, 0) != 0) _exit(125);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return child;
}

void run_two_nodes(const TwoNodeScenario &scenario)
{
    require_munged();
    int fds[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0, "socketpair");
    const pid_t child = start_node_b(fds[1], scenario);
    cr_assert_geq(child, 0, "fork");
    close(fds[1]);
    const NodeOutcome outcome = run_node(0, fds[0], scenario, client_path("itest_twonode"), kJobTimeoutMs);
    const int status = wait_child(child, kJobTimeoutMs);
    cr_expect(outcome.mine.empty(), "node A:\n%s", outcome.mine.c_str());
    cr_expect(outcome.peer_finished, "node B never reported back");
    cr_expect(outcome.peer.empty(), "node B:\n%s", outcome.peer.c_str());
    cr_expect(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "node B (itest_node): status %d", status);
}

}  // namespace

// PMIX_COLLECT_DATA: each node's data reaches the other with the fence.
Test(two_nodes, fence_collects_both_nodes_data_by_scope)
{
    run_two_nodes({"itest-2n-collect", InfoStyle::full, true});
}

// No collection: a remote peer's data comes through the host's direct modex.
Test(two_nodes, get_without_collect_goes_through_direct_modex)
{
    run_two_nodes({"itest-2n-dmodex", InfoStyle::full, false});
}

// Only the maps and the job size were registered: each node derives its
// own layout keys (hostnames, node ids, local peers, local and node ranks).
Test(two_nodes, derived_layout_keys_on_each_node)
{
    run_two_nodes({"itest-2n-derived", InfoStyle::minimal, true});
}

// A group construct of the whole job instead of the collecting fence: each
// server hands the host its members' data (PMIX_GROUP_ENDPT_DATA), the
// host joins both nodes' (as PRRTE's allgather does), and every member
// reads the other node's data by scope without a direct modex.
Test(two_nodes, group_construct_carries_both_nodes_data)
{
    run_two_nodes({"itest-2n-group", InfoStyle::full, true, true});
}
