#include "server/state/waiters.h"

#include <vector>

namespace pmixpp::server {

CommitWaiters::CommitWaiters(runtime::ProgressEngine &engine) : engine_(engine), alive_(std::make_shared<bool>(true)) {}

CommitWaiters::~CommitWaiters()
{
    *alive_ = false;
    fail_all(PMIX_ERR_LOST_CONNECTION);
}

void CommitWaiters::add(const std::string &nspace, pmix_rank_t rank, std::chrono::milliseconds timeout,
                        Callback callback, uint64_t owner)
{
    const uint64_t id = next_id_++;
    Entry &entry = entries_[id];
    entry.nspace = nspace;
    entry.rank = rank;
    entry.owner = owner;
    if (owner != 0) ++per_owner_[owner];
    entry.callback = std::move(callback);
    if (timeout.count() > 0) {
        std::weak_ptr<bool> alive = alive_;
        entry.timer = engine_.add_timer(timeout, [this, alive, id] {
            if (alive.lock()) finish(id, PMIX_ERR_TIMEOUT);
        });
    }
}

void CommitWaiters::finish(uint64_t id, pmix_status_t status)
{
    auto found = entries_.find(id);
    if (found == entries_.end()) return;
    Entry entry = std::move(found->second);
    entries_.erase(found);
    if (entry.owner != 0) {
        auto count = per_owner_.find(entry.owner);
        if (count != per_owner_.end() && --count->second == 0) per_owner_.erase(count);
    }
    entry.timer.cancel();
    if (entry.callback) entry.callback(status);
}

template <typename Match> void CommitWaiters::finish_matching(Match match, pmix_status_t status)
{
    // Collected first: a callback may add new waiters.
    std::vector<uint64_t> ids;
    for (const auto &[id, entry] : entries_) {
        if (match(entry)) ids.push_back(id);
    }
    for (uint64_t id : ids) finish(id, status);
}

void CommitWaiters::committed(const std::string &nspace, pmix_rank_t rank)
{
    finish_matching([&](const Entry &e) { return e.rank == rank && e.nspace == nspace; }, PMIX_SUCCESS);
}

void CommitWaiters::fail_proc(const std::string &nspace, pmix_rank_t rank, pmix_status_t status)
{
    finish_matching([&](const Entry &e) { return e.rank == rank && e.nspace == nspace; }, status);
}

void CommitWaiters::fail_nspace(const std::string &nspace, pmix_status_t status)
{
    finish_matching([&](const Entry &e) { return e.nspace == nspace; }, status);
}

std::size_t CommitWaiters::owned_by(uint64_t owner) const
{
    const auto found = per_owner_.find(owner);
    return found == per_owner_.end() ? 0 : found->second;
}

void CommitWaiters::fail_owner(uint64_t owner, pmix_status_t status)
{
    if (owned_by(owner) == 0) return;
    finish_matching([&](const Entry &e) { return e.owner == owner; }, status);
}

void CommitWaiters::fail_all(pmix_status_t status)
{
    finish_matching([](const Entry &) { return true; }, status);
}

}  // namespace pmixpp::server
