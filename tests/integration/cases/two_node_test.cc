// A job over two "nodes" on one machine: the test process is node A and
// forks node B; each runs its own host and PMIx server (own hostname, own
// temp dir, own server rank), registers the same 2x2 job with the same node
// and process maps, and starts its two local processes. The hosts carry
// fence contributions and direct-modex requests to each other over a
// socket pair (NodeLink), as a resource manager does over its network.
#include "integration/cases/itest_support.h"
#include "integration/host/node_link.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace pmixpp::itest;

TestSuite(two_nodes, .timeout = 240);

namespace {

constexpr const char *kNodeNames[2] = {"nodeA", "nodeB"};
constexpr int kProcsPerNode = 2;

struct Scenario {
    const char *nspace;
    InfoStyle style;
    bool collect;
};

struct NodeOutcome {
    std::string mine;       // "" when everything on this node went well
    bool peer_finished = false;
    std::string peer;       // the other node's verdict
};

void append(std::string *verdict, const std::string &line) { *verdict += line + "\n"; }

Launch twonode_launch(const JobLayout &layout, int index, const Scenario &scenario)
{
    Launch launch;
    launch.program = client_path("itest_twonode");
    launch.args = {"--job-size", std::to_string(layout.job_size),
                   "--first-local", std::to_string(layout.local_ranks().front()),
                   "--local-size", std::to_string(layout.local_ranks().size()),
                   "--nodes", std::string(kNodeNames[0]) + "," + kNodeNames[1],
                   "--ppn", std::to_string(kProcsPerNode),
                   "--hostname", kNodeNames[index],
                   "--nodeid", std::to_string(index)};
    if (!scenario.collect) launch.args.push_back("--no-collect");
    return launch;
}

// What the host saw, beyond the processes' own checks.
void check_upcalls(Host &host, const NodeLink &link, const Scenario &scenario, std::string *verdict)
{
    const int fences = host.counters().fences.load();
    if (fences != 2) append(verdict, "fence_nb upcalls: " + std::to_string(fences) + ", expected 2");
    const int asked = host.counters().direct_modex.load();
    if (scenario.collect && asked != 0) {
        append(verdict, std::to_string(asked) + " direct_modex upcalls although the fence collected the data");
    }
    if (!scenario.collect && asked == 0) append(verdict, "no direct_modex upcall: remote data came from nowhere");
    if (!scenario.collect && link.dmodex_served() == 0) {
        append(verdict, "PMIx_server_dmodex_request never answered the other node");
    }
}

std::string run_job_on_node(Host &host, const NodeLink &link, int index, const Scenario &scenario)
{
    JobSpec spec;
    spec.nspace = scenario.nspace;
    spec.local_procs = kProcsPerNode;
    spec.remote_procs = kProcsPerNode;
    spec.remote_nodes = {kNodeNames[1 - index]};
    spec.local_node_index = static_cast<std::size_t>(index);
    spec.style = scenario.style;
    JobLayout layout;
    std::string error;
    if (host.register_job(spec, &layout, &error) != PMIX_SUCCESS) return "register: " + error;
    std::vector<pid_t> pids;
    const pmix_status_t rc = host.spawn_job(spec.nspace, layout, twonode_launch(layout, index, scenario), &pids);
    if (rc != PMIX_SUCCESS) return "spawn: " + status_name(rc);
    std::string verdict;
    for (const ProcResult &result : host.wait(pids, kJobTimeoutMs)) {
        const std::string ok_line = "rank " + std::to_string(result.rank) + " ok\n";
        if (!result.succeeded() || result.output.find(ok_line) == std::string::npos) {
            append(&verdict, result.describe());
        }
    }
    check_upcalls(host, link, scenario, &verdict);
    return verdict;
}

// One node, start to end. No Criterion in here: node B runs it in a child.
NodeOutcome run_node(int index, int link_fd, const Scenario &scenario)
{
    NodeOutcome outcome;
    NodeLink link(link_fd, index == 0);  // outlives the host: late callbacks may use it
    link.start();
    Host host;
    HostOptions options;
    options.hostname = kNodeNames[index];
    options.server_rank = static_cast<pmix_rank_t>(index);
    options.cross_node = &link;
    std::string error;
    if (host.start(options, &error) != PMIX_SUCCESS) {
        outcome.mine = "host start: " + error;
    } else {
        outcome.mine = run_job_on_node(host, link, index, scenario);
    }
    // Both servers stay up until both nodes are done: the other node may still fetch our data.
    outcome.peer_finished = link.finish(outcome.mine, kJobTimeoutMs, &outcome.peer);
    const pmix_status_t rc = host.stop();
    if (rc != PMIX_SUCCESS) append(&outcome.mine, "stopping the host: " + status_name(rc));
    return outcome;
}

[[noreturn]] void be_node_b(int fd, pid_t parent, const Scenario &scenario)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
    if (getppid() != parent) _exit(126);
    int code = 3;
    try {
        const NodeOutcome outcome = run_node(1, fd, scenario);
        code = outcome.mine.empty() ? 0 : 1;
    } catch (...) {
    }
    _exit(code);  // not exit(): the child must not run the test runner's atexit handlers
}

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

void run_two_nodes(const Scenario &scenario)
{
    require_munged();
    int fds[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0, "socketpair");
    // Node B forks before this process starts any PMIx thread.
    const pid_t parent = getpid();
    const pid_t child = fork();
    cr_assert_geq(child, 0, "fork");
    if (child == 0) {
        close(fds[0]);
        be_node_b(fds[1], parent, scenario);
    }
    close(fds[1]);
    const NodeOutcome outcome = run_node(0, fds[0], scenario);
    const int status = wait_child(child, kJobTimeoutMs);
    cr_expect(outcome.mine.empty(), "node A:\n%s", outcome.mine.c_str());
    cr_expect(outcome.peer_finished, "node B never reported back");
    cr_expect(outcome.peer.empty(), "node B:\n%s", outcome.peer.c_str());
    cr_expect(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "node B's host process: status %d",
              status);
}

} // namespace

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
