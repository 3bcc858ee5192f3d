#include "server/requests/fence_tracker.h"

namespace pmixpp::server {

bool Collective::has_arrived(const pmix_proc_t &proc) const
{
    for (const auto &participant : arrived) {
        if (same_proc(participant.proc, proc)) return true;
    }
    return false;
}

Collective *FenceTracker::find_open(const std::string &signature, const pmix_proc_t &proc)
{
    for (auto &[id, collective] : collectives_) {
        if (!collective.host_called && collective.signature == signature &&
            !collective.has_arrived(proc)) {
            return &collective;
        }
    }
    return nullptr;
}

Collective &FenceTracker::create(std::string signature)
{
    const uint64_t id = next_id_++;
    Collective &collective = collectives_[id];
    collective.id = id;
    collective.signature = std::move(signature);
    return collective;
}

Collective *FenceTracker::find(uint64_t id)
{
    auto found = collectives_.find(id);
    return found == collectives_.end() ? nullptr : &found->second;
}

void FenceTracker::erase(uint64_t id)
{
    collectives_.erase(id);
}

std::vector<uint64_t> FenceTracker::ids() const
{
    std::vector<uint64_t> ids;
    for (const auto &[id, collective] : collectives_) ids.push_back(id);
    return ids;
}

}  // namespace pmixpp::server
