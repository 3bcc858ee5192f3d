#include "integration/host/two_node.h"

#include "integration/host/node_link.h"

#include <vector>

namespace pmixpp::itest {

namespace {

constexpr const char *kNodeNames[2] = {"nodeA", "nodeB"};
constexpr int kProcsPerNode = 2;

void append(std::string *verdict, const std::string &line)
{
    *verdict += line + "\n";
}

Launch twonode_launch(const JobLayout &layout, int index, const TwoNodeScenario &scenario,
                      const std::string &twonode_client)
{
    Launch launch;
    launch.program = twonode_client;
    launch.args = {"--job-size",    std::to_string(layout.job_size),
                   "--first-local", std::to_string(layout.local_ranks().front()),
                   "--local-size",  std::to_string(layout.local_ranks().size()),
                   "--nodes",       std::string(kNodeNames[0]) + "," + kNodeNames[1],
                   "--ppn",         std::to_string(kProcsPerNode),
                   "--hostname",    kNodeNames[index],
                   "--nodeid",      std::to_string(index)};
    if (!scenario.collect) launch.args.push_back("--no-collect");
    if (scenario.group) launch.args.push_back("--group");
    return launch;
}

// What the host saw, beyond the processes' own checks.
void check_upcalls(Host &host, const NodeLink &link, const TwoNodeScenario &scenario, std::string *verdict)
{
    const int fences = host.counters().fences.load();
    const int expected_fences = scenario.group ? 1 : 2;  // a group: the construct instead of the first
    if (fences != expected_fences) {
        append(verdict,
               "fence_nb upcalls: " + std::to_string(fences) + ", expected " + std::to_string(expected_fences));
    }
    if (scenario.group && host.counters().endpoint_data_given.load() != 1) {
        append(verdict, "group upcalls with this server's PMIX_GROUP_ENDPT_DATA: " +
                            std::to_string(host.counters().endpoint_data_given.load()) + ", expected 1");
    }
    const int asked = host.counters().direct_modex.load();
    if (scenario.collect && asked != 0) {
        append(verdict, std::to_string(asked) + " direct_modex upcalls although the fence collected the data");
    }
    if (!scenario.collect && asked == 0) append(verdict, "no direct_modex upcall: remote data came from nowhere");
    if (!scenario.collect && link.dmodex_served() == 0) {
        append(verdict, "PMIx_server_dmodex_request never answered the other node");
    }
}

std::string run_job_on_node(Host &host, const NodeLink &link, int index, const TwoNodeScenario &scenario,
                            const std::string &twonode_client, int timeout_ms)
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
    const pmix_status_t rc =
        host.spawn_job(spec.nspace, layout, twonode_launch(layout, index, scenario, twonode_client), &pids);
    if (rc != PMIX_SUCCESS) return "spawn: " + status_name(rc);
    std::string verdict;
    for (const ProcResult &result : host.wait(pids, timeout_ms)) {
        const std::string ok_line = "rank " + std::to_string(result.rank) + " ok\n";
        if (!result.succeeded() || result.output.find(ok_line) == std::string::npos) {
            append(&verdict, result.describe());
        }
    }
    check_upcalls(host, link, scenario, &verdict);
    return verdict;
}

}  // namespace

NodeOutcome run_node(int index, int link_fd, const TwoNodeScenario &scenario, const std::string &twonode_client,
                     int timeout_ms)
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
        outcome.mine = run_job_on_node(host, link, index, scenario, twonode_client, timeout_ms);
    }
    // Both servers stay up until both nodes are done: the other node may still fetch our data.
    outcome.peer_finished = link.finish(outcome.mine, timeout_ms, &outcome.peer);
    const pmix_status_t rc = host.stop();
    if (rc != PMIX_SUCCESS) append(&outcome.mine, "stopping the host: " + status_name(rc));
    return outcome;
}

std::string style_name(InfoStyle style)
{
    return style == InfoStyle::minimal ? "minimal" : "full";
}

bool parse_style(const std::string &name, InfoStyle *style_p)
{
    if (name == "full") *style_p = InfoStyle::full;
    else if (name == "minimal") *style_p = InfoStyle::minimal;
    else return false;
    return true;
}

}  // namespace pmixpp::itest
