// Local fences in progress: a LocalCollective plus what a fence collects.
#ifndef PMIXPP_SERVER_REQUESTS_FENCE_TRACKER_H
#define PMIXPP_SERVER_REQUESTS_FENCE_TRACKER_H

#include "server/requests/collective_tracker.h"

namespace pmixpp::server {

struct Collective : LocalCollective {
    bool collect = false;
    bool all_local = false;                         // no participant on another node
    wire::Bytes local_blob;                         // built for the host, then moved into its call
    wire::Bytes contribution;                       // a copy of what the host was handed
    pmix_scope_t contribution_scope = PMIX_REMOTE;  // the view it holds of each proc
};

using FenceTracker = CollectiveTracker<Collective>;

}  // namespace pmixpp::server

#endif
