// One node of the two-node job (cases/two_node_test.cc): its own host and
// PMIx server (own hostname, temp dir, server rank) registers the shared 2x2
// job, starts its two local processes, and carries fence contributions and
// direct-modex requests to the other node over a socket pair (NodeLink).
// The test process is node A; node B is the program itest_node
// (node_main.cc), forked and exec'd so that it starts with no thread of the
// test process (ThreadSanitizer cannot follow a threaded process that forks
// and starts threads without exec, and neither can a real resource manager
// be assumed to).
#ifndef PMIXPP_TESTS_INTEGRATION_TWO_NODE_H
#define PMIXPP_TESTS_INTEGRATION_TWO_NODE_H

#include "integration/host/itest_host.h"

#include <string>

namespace pmixpp::itest {

struct TwoNodeScenario {
    std::string nspace;
    InfoStyle style = InfoStyle::full;
    bool collect = true;
    bool group = false;  // a group construct of the whole job instead of the collecting fence
};

struct NodeOutcome {
    std::string mine;  // "" when everything on this node went well
    bool peer_finished = false;
    std::string peer;  // the other node's verdict
};

// Node `index` (0 or 1) start to end; `twonode_client` is the itest_twonode
// program each node starts twice.
NodeOutcome run_node(int index, int link_fd, const TwoNodeScenario &scenario, const std::string &twonode_client,
                     int timeout_ms);

// The scenario as itest_node's arguments, and back.
std::string style_name(InfoStyle style);
bool parse_style(const std::string &name, InfoStyle *style_p);

}  // namespace pmixpp::itest

#endif
