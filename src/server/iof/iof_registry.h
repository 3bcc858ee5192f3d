// Who pulled whose output (PMIx_IOF_pull of tools and clients), and the
// recent output of every proc, so that a pull made after a job started
// still sees what it printed first. Progress thread only.
//
// Bounds: at most kMaxPullsPerPeer registrations per connection, at most
// kMaxCachedStreams proc/channel streams cached, each keeping its last
// cache_bytes bytes (PMIX_MCA_pmix_server_iof_cache_size, default 16k, 0
// caches nothing). A stream past the stream bound is not cached (counted).
#ifndef PMIXPP_SERVER_IOF_IOF_REGISTRY_H
#define PMIXPP_SERVER_IOF_IOF_REGISTRY_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "common/runtime/progress_engine.h"
#include "common/wire/messages.h"
#include "server/state/registry.h"

namespace pmixpp::server::iof {

inline constexpr std::size_t kMaxPullsPerPeer = 64;
inline constexpr std::size_t kMaxCachedStreams = 1024;
inline constexpr std::size_t kDefaultCacheBytes = 16 * 1024;
inline constexpr const char *kCacheSizeEnv = "PMIX_MCA_pmix_server_iof_cache_size";

struct Pull {
    uint64_t id = 0;
    PeerId owner = kNoPeer;
    std::vector<pmix_proc_t> procs;
    uint16_t channels = 0;
    bool active = false;   // false while the host's iof_pull has not answered
    uint64_t dropped = 0;  // bytes dropped since the last chunk that got through
    uint64_t dropped_total = 0;
    // Where the newest dropped bytes came from: the source and channel of
    // the empty chunk that tells the count when no other chunk follows.
    pmix_proc_t dropped_source{};
    uint16_t dropped_channel = 0;

    bool wants(const pmix_proc_t &source, uint16_t channel) const;
};

// One cached stream: the last bytes of one proc on one channel.
struct CachedStream {
    pmix_proc_t source{};
    uint16_t channel = 0;
    std::deque<uint8_t> tail;
};

// The owner of the host's own pulls (host mode): its chunks go to the
// sink the client library installed (set_host_sink), not to a peer.
inline constexpr PeerId kHostOwner = ~PeerId{0};

class IofRegistry {
public:
    IofRegistry();

    // PMIX_ERR_OUT_OF_RESOURCE past kMaxPullsPerPeer.
    pmix_status_t add(PeerId owner, std::vector<pmix_proc_t> procs, uint16_t channels, uint64_t *id_p);
    Pull *find(PeerId owner, uint64_t id);
    // PMIX_ERR_NOT_FOUND when owner holds no such registration.
    pmix_status_t remove(PeerId owner, uint64_t id);
    void remove_owner(PeerId owner);
    void clear();

    // The active registrations that want this chunk (never the source's own).
    std::vector<Pull *> matching(const pmix_proc_t &source, uint16_t channel, PeerId source_peer);

    // Output lost before it could be matched: every active pull may have
    // missed it.
    void add_dropped_to_all(uint64_t bytes);
    // The active registrations holding a count of dropped bytes not yet told.
    std::vector<Pull *> with_untold_drops();
    // Tells those counts when no chunk follows (deliver.cc); one at a time.
    runtime::Timer &drop_notice_timer() { return drop_notice_timer_; }

    void remember(const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size);
    // The cached streams a pull wants, in no particular order.
    std::vector<const CachedStream *> cached_for(const Pull &pull) const;

    // Where the chunks of the host's own pulls go (progress thread).
    using HostSink = std::function<void(const wire::IofData &chunk)>;
    void set_host_sink(HostSink sink) { host_sink_ = std::move(sink); }
    const HostSink &host_sink() const { return host_sink_; }

    std::size_t cache_bytes() const { return cache_bytes_; }
    uint64_t streams_not_cached() const { return streams_not_cached_; }

private:
    using StreamKey = std::tuple<std::string, pmix_rank_t, uint16_t>;
    std::map<uint64_t, Pull> pulls_;
    std::map<StreamKey, CachedStream> cache_;
    uint64_t next_id_ = 1;
    std::size_t cache_bytes_;
    uint64_t streams_not_cached_ = 0;
    runtime::Timer drop_notice_timer_;
    HostSink host_sink_;
};

}  // namespace pmixpp::server::iof

#endif
