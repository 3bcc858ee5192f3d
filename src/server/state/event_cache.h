// Events the server delivered lately, kept for clients that register for
// them afterwards: OpenPMIx does so, and programs written for it count on
// it (a handler registered just after the event was raised, as in its
// alloc example, still hears it). Each event reaches a peer at most once.
// Bounded by count (PMIX_MCA_pmix_max_events, default 512), bytes (4 MiB of
// encoded events) and age (PMIX_MCA_pmix_event_eviction_time, seconds,
// default 120); the oldest go first.
#ifndef PMIXPP_SERVER_STATE_EVENT_CACHE_H
#define PMIXPP_SERVER_STATE_EVENT_CACHE_H

#include "common/wire/connection.h"
#include "common/wire/messages.h"
#include "server/state/registry.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <vector>

namespace pmixpp::server {

inline constexpr const char *kMaxEventsEnv = "PMIX_MCA_pmix_max_events";
inline constexpr const char *kEventEvictionTimeEnv = "PMIX_MCA_pmix_event_eviction_time";

class EventCache {
public:
    using Clock = std::chrono::steady_clock;

    struct Entry {
        wire::Event event;
        wire::SharedBytes encoded;  // as sent; replays share it
        PeerId raised_by = kNoPeer;
        std::vector<PeerId> reached;
        Clock::time_point raised;
    };

    EventCache();
    // Keeps a delivered event with the peers it reached.
    void add(Entry entry);
    // The events still kept (older ones dropped first).
    std::deque<Entry> &live();
    // Drops the kept events `stale` picks (an invitation that ended is
    // no news to a late handler).
    void forget(const std::function<bool(const wire::Event &event)> &stale);

private:
    void evict(Clock::time_point now);

    std::deque<Entry> entries_;
    std::size_t bytes_ = 0;
    std::size_t max_events_;
    std::size_t max_bytes_;
    std::chrono::seconds max_age_;
};

}  // namespace pmixpp::server

#endif
