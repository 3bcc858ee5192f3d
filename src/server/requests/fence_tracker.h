// Local fences in progress, keyed by their participant set. Progress thread
// only; the logic that drives them is in fence.cc.
#ifndef PMIXPP_SERVER_REQUESTS_FENCE_TRACKER_H
#define PMIXPP_SERVER_REQUESTS_FENCE_TRACKER_H

#include "common/runtime/progress_engine.h"
#include "common/wire/messages.h"
#include "server/core/registry.h"

#include <pmix_common.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

struct FenceParticipant {
    PeerId peer = kNoPeer;
    uint32_t tag = 0;
    pmix_proc_t proc{};
};

struct Collective {
    uint64_t id = 0;
    std::string signature;               // the sorted participant set
    std::vector<pmix_proc_t> procs;      // what the host's fence_nb gets
    std::set<std::string> expected;      // local participants (proc_name)
    std::vector<FenceParticipant> arrived;
    wire::InfoArray directives;          // the first arrival's, plus the merged flags
    bool collect = false;
    bool all_local = false;              // no participant on another node
    bool host_called = false;
    wire::Bytes local_blob;              // built for the host, then moved into its call
    wire::Bytes contribution;            // a copy of what the host was handed
    pmix_scope_t contribution_scope = PMIX_REMOTE;  // the view it holds of each proc
    runtime::Timer timer;

    bool has_arrived(const pmix_proc_t &proc) const;
    bool complete() const { return arrived.size() >= expected.size(); }
};

class FenceTracker {
public:
    // The open (not yet handed to the host) collective for signature that
    // proc has not joined yet; nullptr if none.
    Collective *find_open(const std::string &signature, const pmix_proc_t &proc);
    Collective &create(std::string signature);
    Collective *find(uint64_t id);
    void erase(uint64_t id);
    std::vector<uint64_t> ids() const;
    std::size_t size() const { return collectives_.size(); }

private:
    std::map<uint64_t, Collective> collectives_;
    uint64_t next_id_ = 1;
};

}  // namespace pmixpp::server

#endif
