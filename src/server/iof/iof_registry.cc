#include "server/iof/iof_registry.h"

#include <cstdlib>
#include <cstring>

#include "common/wire/flow_limits.h"

namespace pmixpp::server::iof {

namespace {

// A wildcard rank in a pull stands for every rank of its nspace.
bool covers(const pmix_proc_t &wanted, const pmix_proc_t &source)
{
    if (std::strncmp(wanted.nspace, source.nspace, PMIX_MAX_NSLEN) != 0) return false;
    return wanted.rank == PMIX_RANK_WILDCARD || wanted.rank == source.rank;
}

std::size_t cache_bytes_from_environment()
{
    const char *text = std::getenv(kCacheSizeEnv);
    if (text == nullptr) return kDefaultCacheBytes;
    if (std::strcmp(text, "0") == 0) return 0;
    std::size_t bytes = 0;
    // A typo keeps the default rather than caching without bound.
    return wire::parse_byte_size(text, &bytes) ? bytes : kDefaultCacheBytes;
}

// The first channel a pull wants (a drop notice must name one).
uint16_t lowest_channel(uint16_t channels)
{
    return static_cast<uint16_t>(channels & -channels);
}

}  // namespace

bool Pull::wants(const pmix_proc_t &source, uint16_t channel) const
{
    if ((channels & channel) == 0) return false;
    for (const pmix_proc_t &proc : procs) {
        if (covers(proc, source)) return true;
    }
    return false;
}

IofRegistry::IofRegistry() : cache_bytes_(cache_bytes_from_environment()) {}

pmix_status_t IofRegistry::add(PeerId owner, std::vector<pmix_proc_t> procs, uint16_t channels, uint64_t *id_p)
{
    std::size_t held = 0;
    for (const auto &[id, pull] : pulls_) held += pull.owner == owner ? 1 : 0;
    if (held >= kMaxPullsPerPeer) return PMIX_ERR_OUT_OF_RESOURCE;
    Pull pull;
    pull.id = next_id_++;
    pull.owner = owner;
    pull.procs = std::move(procs);
    pull.channels = channels;
    const uint64_t id = pull.id;
    pulls_.emplace(id, std::move(pull));
    *id_p = id;
    return PMIX_SUCCESS;
}

Pull *IofRegistry::find(PeerId owner, uint64_t id)
{
    auto found = pulls_.find(id);
    if (found == pulls_.end() || found->second.owner != owner) return nullptr;
    return &found->second;
}

pmix_status_t IofRegistry::remove(PeerId owner, uint64_t id)
{
    if (find(owner, id) == nullptr) return PMIX_ERR_NOT_FOUND;
    pulls_.erase(id);
    return PMIX_SUCCESS;
}

void IofRegistry::remove_owner(PeerId owner)
{
    std::erase_if(pulls_, [owner](const auto &entry) { return entry.second.owner == owner; });
}

void IofRegistry::clear()
{
    pulls_.clear();
    cache_.clear();
}

std::vector<Pull *> IofRegistry::matching(const pmix_proc_t &source, uint16_t channel, PeerId source_peer)
{
    std::vector<Pull *> found;
    for (auto &[id, pull] : pulls_) {
        if (pull.active && pull.owner != source_peer && pull.wants(source, channel)) found.push_back(&pull);
    }
    return found;
}

void IofRegistry::add_dropped_to_all(uint64_t bytes)
{
    for (auto &[id, pull] : pulls_) {
        if (!pull.active) continue;
        if (pull.dropped == 0 && !pull.procs.empty()) {
            pull.dropped_source = pull.procs.front();
            pull.dropped_channel = lowest_channel(pull.channels);
        }
        pull.dropped += bytes;
        pull.dropped_total += bytes;
    }
}

std::vector<Pull *> IofRegistry::with_untold_drops()
{
    std::vector<Pull *> found;
    for (auto &[id, pull] : pulls_) {
        if (pull.active && pull.dropped > 0) found.push_back(&pull);
    }
    return found;
}

void IofRegistry::remember(const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size)
{
    if (cache_bytes_ == 0 || size == 0) return;
    StreamKey key{std::string(source.nspace, strnlen(source.nspace, PMIX_MAX_NSLEN)), source.rank, channel};
    auto found = cache_.find(key);
    if (found == cache_.end()) {
        if (cache_.size() >= kMaxCachedStreams) {
            ++streams_not_cached_;
            return;
        }
        found = cache_.emplace(key, CachedStream{source, channel, {}}).first;
    }
    std::deque<uint8_t> &tail = found->second.tail;
    if (size >= cache_bytes_) {
        tail.assign(data + (size - cache_bytes_), data + size);
        return;
    }
    tail.insert(tail.end(), data, data + size);
    while (tail.size() > cache_bytes_) tail.pop_front();
}

std::vector<const CachedStream *> IofRegistry::cached_for(const Pull &pull) const
{
    std::vector<const CachedStream *> found;
    for (const auto &[key, stream] : cache_) {
        if (!stream.tail.empty() && pull.wants(stream.source, stream.channel)) found.push_back(&stream);
    }
    return found;
}

}  // namespace pmixpp::server::iof
