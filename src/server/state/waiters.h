// Requests parked until a local process commits its data (a Get of a key
// the target has not posted yet, a dmodex request from another node), each
// with an optional timeout. Progress thread only.
#ifndef PMIXPP_SERVER_STATE_WAITERS_H
#define PMIXPP_SERVER_STATE_WAITERS_H

#include "common/runtime/progress_engine.h"

#include <pmix_common.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace pmixpp::server {

class CommitWaiters {
public:
    // status: PMIX_SUCCESS when the proc committed, PMIX_ERR_TIMEOUT, or the
    // error given to fail_*.
    using Callback = std::function<void(pmix_status_t status)>;

    explicit CommitWaiters(runtime::ProgressEngine &engine);
    ~CommitWaiters();
    CommitWaiters(const CommitWaiters &) = delete;
    CommitWaiters &operator=(const CommitWaiters &) = delete;

    // timeout 0: wait until committed or failed. owner: the connection the
    // request came in on (0: the host's own), so that one peer's parked
    // requests can be counted and dropped with it.
    void add(const std::string &nspace, pmix_rank_t rank, std::chrono::milliseconds timeout, Callback callback,
             uint64_t owner = 0);
    std::size_t owned_by(uint64_t owner) const;
    void fail_owner(uint64_t owner, pmix_status_t status);
    void committed(const std::string &nspace, pmix_rank_t rank);
    void fail_proc(const std::string &nspace, pmix_rank_t rank, pmix_status_t status);
    void fail_nspace(const std::string &nspace, pmix_status_t status);
    void fail_all(pmix_status_t status);
    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        std::string nspace;
        pmix_rank_t rank;
        uint64_t owner = 0;
        Callback callback;
        runtime::Timer timer;
    };
    void finish(uint64_t id, pmix_status_t status);
    template <typename Match> void finish_matching(Match match, pmix_status_t status);

    runtime::ProgressEngine &engine_;
    std::map<uint64_t, Entry> entries_;
    std::map<uint64_t, std::size_t> per_owner_;  // owners other than 0
    uint64_t next_id_ = 1;
    std::shared_ptr<bool> alive_;
};

}  // namespace pmixpp::server

#endif
