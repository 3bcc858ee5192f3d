#include "server/requests/collective_tracker.h"

#include <algorithm>

namespace pmixpp::server {

bool LocalCollective::has_arrived(const pmix_proc_t &proc) const
{
    for (const auto &arrival : arrived) {
        if (same_proc(arrival.proc, proc)) return true;
    }
    return false;
}

bool LocalCollective::drop(PeerId peer, const std::string &proc)
{
    arrived.erase(std::remove_if(arrived.begin(), arrived.end(), [&](const Arrival &a) { return a.peer == peer; }),
                  arrived.end());
    return expected.count(proc) != 0;
}

}  // namespace pmixpp::server
