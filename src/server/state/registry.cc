#include "server/state/registry.h"

#include <algorithm>
#include <cstring>

namespace pmixpp::server {

bool Namespace::is_local(pmix_rank_t rank) const
{
    const auto &ranks = summary.local_ranks;
    return std::binary_search(ranks.begin(), ranks.end(), rank);
}

bool Namespace::all_local() const
{
    return registered && summary.local_ranks.size() >= summary.job_size;
}

bool Peer::wants(pmix_status_t code) const
{
    for (const auto &registration : events) {
        if (registration.codes.empty()) return true;
        if (std::find(registration.codes.begin(), registration.codes.end(), code) != registration.codes.end()) {
            return true;
        }
    }
    return false;
}

bool Peer::names(pmix_status_t code) const
{
    for (const auto &registration : events) {
        if (std::find(registration.codes.begin(), registration.codes.end(), code) != registration.codes.end()) {
            return true;
        }
    }
    return false;
}

bool same_proc(const pmix_proc_t &a, const pmix_proc_t &b)
{
    return a.rank == b.rank && std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}

pmix_proc_t make_proc(const std::string &nspace, pmix_rank_t rank)
{
    pmix_proc_t proc{};
    PMIX_LOAD_NSPACE(proc.nspace, nspace.c_str());
    proc.rank = rank;
    return proc;
}

std::string proc_name(const pmix_proc_t &proc)
{
    std::string name(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN));
    if (proc.rank == PMIX_RANK_WILDCARD) return name + ".*";
    return name + "." + std::to_string(proc.rank);
}

}  // namespace pmixpp::server
