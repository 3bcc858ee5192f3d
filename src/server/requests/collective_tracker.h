// Local collectives in progress (fence, connect, disconnect), keyed by their
// participant set: who is expected on this node, who has arrived, and
// whether the host was handed the collective yet. Progress thread only; the
// logic that drives each kind is in fence.cc and connect.cc.
#ifndef PMIXPP_SERVER_REQUESTS_COLLECTIVE_TRACKER_H
#define PMIXPP_SERVER_REQUESTS_COLLECTIVE_TRACKER_H

#include "common/runtime/progress_engine.h"
#include "common/wire/messages.h"
#include "server/state/registry.h"

#include <pmix_common.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

// One local participant that has arrived, and where its reply goes.
struct Arrival {
    PeerId peer = kNoPeer;
    uint32_t tag = 0;
    pmix_proc_t proc{};
};

struct LocalCollective {
    uint64_t id = 0;
    std::string signature;           // the sorted participant set
    std::vector<pmix_proc_t> procs;  // what the host's upcall gets
    std::set<std::string> expected;  // local participants (proc_name)
    std::vector<Arrival> arrived;
    wire::InfoArray directives;  // the first arrival's (fence: plus merged flags)
    bool host_called = false;
    runtime::Timer timer;  // PMIX_TIMEOUT

    bool has_arrived(const pmix_proc_t &proc) const;
    bool complete() const { return arrived.size() >= expected.size(); }
    // Forgets the arrival of peer; whether proc was an expected participant.
    bool drop(PeerId peer, const std::string &proc);
};

template <typename Collective> class CollectiveTracker {
public:
    // The open (not yet handed to the host) collective for signature that
    // proc has not joined yet; nullptr if none.
    Collective *find_open(const std::string &signature, const pmix_proc_t &proc)
    {
        for (auto &[id, collective] : collectives_) {
            if (!collective.host_called && collective.signature == signature && !collective.has_arrived(proc)) {
                return &collective;
            }
        }
        return nullptr;
    }
    Collective &create(std::string signature)
    {
        const uint64_t id = next_id_++;
        Collective &collective = collectives_[id];
        collective.id = id;
        collective.signature = std::move(signature);
        return collective;
    }
    Collective *find(uint64_t id)
    {
        auto found = collectives_.find(id);
        return found == collectives_.end() ? nullptr : &found->second;
    }
    void erase(uint64_t id) { collectives_.erase(id); }
    // A snapshot: completing a collective erases it while the caller walks these.
    std::vector<uint64_t> ids() const
    {
        std::vector<uint64_t> ids;
        for (const auto &[id, collective] : collectives_) ids.push_back(id);
        return ids;
    }
    std::size_t size() const { return collectives_.size(); }

private:
    std::map<uint64_t, Collective> collectives_;
    uint64_t next_id_ = 1;
};

}  // namespace pmixpp::server

#endif
