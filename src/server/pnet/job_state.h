// What the server keeps per namespace for its pnet components: the job's
// environment directives, whether local support is still being prepared,
// and which cleanups already ran (each runs exactly once).
#ifndef PMIXPP_SERVER_PNET_JOB_STATE_H
#define PMIXPP_SERVER_PNET_JOB_STATE_H

#include "server/fork/envars.h"

#include <pmix_common.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server::pnet {

struct JobState {
    std::vector<EnvarDirective> envars;    // from register_nspace, in order
    int local_support_pending = 0;         // setup_local_support calls not done yet
    std::set<pmix_rank_t> children_ended;  // child cleanup ran
    std::set<uint32_t> apps_ended;         // application cleanup ran
    // Local children not ended yet, per application; counted once, at the
    // first child that ends (one lookup per local rank for the whole job).
    std::map<uint32_t, uint32_t> children_left;
    bool counted = false;
};

}  // namespace pmixpp::server::pnet

namespace pmixpp::server {

class Server;

// Progress thread: what setup_fork needs of the job (its envars, whether
// local support is still being prepared) published for any thread
// (fork/fork_state.h); forgotten when the namespace is gone.
void publish_fork_job(const Server &server, const std::string &nspace);

}  // namespace pmixpp::server

#endif
