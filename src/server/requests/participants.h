// What the local collectives (fence.cc, connect.cc) share: the normalised
// participant set of a request, which of its procs live on this node, the
// joining of the open collective of that set, and its PMIX_TIMEOUT.
// Progress thread only.
#ifndef PMIXPP_SERVER_REQUESTS_PARTICIPANTS_H
#define PMIXPP_SERVER_REQUESTS_PARTICIPANTS_H

#include "server/state/server.h"
#include "server/requests/collective_tracker.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pmixpp::server {

// Sorted and without repeats, so that the same set named in another order
// (or with a proc twice) is the same collective.
std::vector<pmix_proc_t> normalised(std::vector<pmix_proc_t> procs);
// A key for a normalised set.
std::string signature_of(const std::vector<pmix_proc_t> &procs);

// The local participants of a participant set.
struct Participants {
    std::set<std::string> local;  // proc_name of each
    bool all_local = true;        // no participant on another node
    bool any_gone = false;        // a local one is gone (peer_lifecycle.h)
};
// A rank PMIX_RANK_WILDCARD stands for every local proc of its namespace; a
// namespace this server does not know lives elsewhere.
Participants local_participants(Server &server, const std::vector<pmix_proc_t> &procs);

// The caller joins the open collective of `signature` (a new one when none
// is open, *created_p then true) and is counted as arrived.
template <typename Collective>
Collective &join(CollectiveTracker<Collective> &tracker, const std::string &signature, const Peer &peer, uint32_t tag,
                 bool *created_p)
{
    Collective *collective = tracker.find_open(signature, peer.proc);
    *created_p = collective == nullptr;
    if (collective == nullptr) collective = &tracker.create(signature);
    collective->arrived.push_back(Arrival{peer.id, tag, peer.proc});
    return *collective;
}

// A participant's connection ended: it leaves every collective that expects
// it, and those not yet handed to the host (they can never complete) are
// failed through fail(id).
template <typename Collective>
void leave_all(CollectiveTracker<Collective> &tracker, const Peer &peer, const std::function<void(uint64_t)> &fail)
{
    const std::string name = proc_name(peer.proc);
    for (uint64_t id : tracker.ids()) {
        Collective *collective = tracker.find(id);
        if (collective == nullptr || !collective->drop(peer.id, name)) continue;
        if (!collective->host_called) fail(id);
    }
}

// With PMIX_TIMEOUT among the collective's directives, expire(server, id)
// runs once that many seconds passed (cancelled with collective.timer).
void arm_timeout(Server &server, LocalCollective &collective, std::function<void(Server &server, uint64_t id)> expire);

}  // namespace pmixpp::server

#endif
