#include "server/requests/participants.h"

#include "server/state/info_read.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace pmixpp::server {

namespace {

bool proc_less(const pmix_proc_t &a, const pmix_proc_t &b)
{
    const int order = std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN);
    return order != 0 ? order < 0 : a.rank < b.rank;
}

void add_local(const Namespace &ns, pmix_rank_t rank, Participants &participants)
{
    participants.local.insert(proc_name(make_proc(ns.name, rank)));
    if (ns.gone.count(rank) != 0) participants.any_gone = true;
}

}  // namespace

std::vector<pmix_proc_t> normalised(std::vector<pmix_proc_t> procs)
{
    std::sort(procs.begin(), procs.end(), proc_less);
    procs.erase(std::unique(procs.begin(), procs.end(), same_proc), procs.end());
    return procs;
}

std::string signature_of(const std::vector<pmix_proc_t> &procs)
{
    std::string signature;
    for (const auto &proc : procs) signature += proc_name(proc) + ",";
    return signature;
}

Participants local_participants(Server &server, const std::vector<pmix_proc_t> &procs)
{
    Participants participants;
    for (const auto &proc : procs) {
        Namespace *ns = server.find_namespace(proc.nspace);
        if (ns == nullptr || !ns->registered) {
            participants.all_local = false;
            continue;
        }
        if (proc.rank == PMIX_RANK_WILDCARD) {
            for (pmix_rank_t rank : ns->summary.local_ranks) add_local(*ns, rank, participants);
            participants.all_local = participants.all_local && ns->all_local();
        } else if (ns->is_local(proc.rank)) {
            add_local(*ns, proc.rank, participants);
        } else {
            participants.all_local = false;
        }
    }
    return participants;
}

void arm_timeout(Server &server, LocalCollective &collective, std::function<void(Server &server, uint64_t id)> expire)
{
    const auto seconds = directive_timeout(collective.directives.data(), collective.directives.size());
    if (!seconds) return;
    const uint64_t id = collective.id;
    collective.timer = server.engine.add_timer(std::chrono::seconds(*seconds), [id, expire = std::move(expire)] {
        if (Server *now = current()) expire(*now, id);
    });
}

}  // namespace pmixpp::server
